/** The moves of the console on a released part, each a call of the contract. */
import type { ApiCalls, ReleasePart } from '@shop/shared-kernel/contract';

export type ReleaseAction = 'rollback' | 'pin' | 'unpin' | 'promote' | 'abort' | 'preview' | 'floor';
export type ReleaseCall<A extends ReleaseAction> = ApiCalls[`POST /api/ops/releases/:part/${A}`];

/** Runs one move of a part; `done` words the success. */
export type Act = <A extends ReleaseAction>(
  part: ReleasePart,
  action: A,
  body: ReleaseCall<A>['body'],
  done: (result: ReleaseCall<A>['answer']) => string,
) => Promise<void>;
