export type * from './domain.ts';
export type * from './api.ts';
export type * from './catalog.ts';
export type * from './account.ts';
export type * from './telemetry.ts';
