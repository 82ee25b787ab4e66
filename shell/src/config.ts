import type { FlagShares } from '@shop/shared-kernel/rules';
import type { Registry } from './areas/registry.ts';

/**
 * Runtime configuration injected by the server into index.html
 * (window.__SHOP__), so one shell build runs in every environment.
 */
export type ShellConfig = {
  /** Origin that serves the areas' versioned builds, e.g. https://cdn.example.sk */
  assetOrigin: string;
  /** Google Tag Manager container id; none is loaded when null. */
  gtmId: string | null;
  /** How often the release registry is polled for a new build, in ms. */
  registryPollMs: number;
  /** The registry in force when the page was served (saves a round trip at boot). */
  registry: Registry | null;
  /** Share of page loads that report page views and client errors to the operator (0..1). */
  telemetrySample: number;
  /**
   * A version this browser previews through a signed link (in force for nobody else); `local`: a
   * local override, the area loaded from that loopback origin (the developer's machine).
   */
  preview: { area: string; version: string; endPath: string; local?: string } | null;
  /** The areas' feature switches in force when the page was served (the registry's events carry later changes). */
  flags?: FlagShares;
  /** This browser's canary bucket, given to a server render only (never embedded in the page). */
  bucket?: number | null;
};

declare global {
  interface Window {
    __SHOP__?: Partial<ShellConfig>;
  }
}

export function readConfig(): ShellConfig {
  const injected = window.__SHOP__ ?? {};
  return {
    assetOrigin: injected.assetOrigin ?? window.location.origin,
    gtmId: injected.gtmId ?? null,
    registryPollMs: injected.registryPollMs ?? 60_000,
    registry: injected.registry ?? null,
    telemetrySample: injected.telemetrySample ?? 1,
    preview: injected.preview ?? null,
    flags: injected.flags ?? {},
  };
}
