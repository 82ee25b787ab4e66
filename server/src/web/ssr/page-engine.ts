/**
 * What runs the parts' server builds for page-render.ts: the sandbox (sandbox-engine.ts, always),
 * or this process itself (in-process-engine.ts, the benchmark's comparison only). Either plans a
 * page (its route and declared data) and renders it with the data the server loaded.
 */
import type { BasketEntry, PageRequest, SettledLoad } from '@shop/shared-kernel/contract';
import type { AreaName, AreaRelease } from '@shop/release';
import type { Planned, RenderedHead, SandboxTime } from './sandbox/protocol.ts';

export type { Planned, RenderedHead, SandboxTime };

/** A part's server build at one version: `id` is `<part>/<version>`. */
export type PartBuild = { id: string; part: string; version: string; file: string };

/**
 * One shell instance (a choice of area versions) and the one area whose page it renders (null:
 * the shell's own pages and the frames of pages rendered in the browser).
 */
export type PageContext = {
  key: string;
  shell: PartBuild;
  area: (PartBuild & { name: AreaName }) | null;
  releases: Partial<Record<AreaName, AreaRelease>>;
  assetOrigin: string;
};

export type RenderInput = {
  url: string;
  config: unknown;
  data: ReadonlyMap<string, SettledLoad>;
  notFound: boolean;
  /** Keys the server will not load: the browser does. */
  givenUp: ReadonlySet<string>;
  /** The basket the request carried (its cookie), when the page's data depends on it. */
  basket?: readonly BasketEntry[];
  origin: string;
  /** The data as the page embeds it (page-html.ts's embeddedJson), made once for the render and the page. */
  dataJson: () => string;
  /** What is left of the page's time in the sandbox: the render stops there. */
  time: SandboxTime;
  /** Told how long the parts' code ran for the render (waiting for a renderer, and the renderer's own work, are not the page's time). */
  spent?: (time: SandboxTime) => void;
};

export type PageEngine = {
  /** `time`: the page's time in the sandbox (the render budget); plan and renders together spend it. */
  plan(context: PageContext, url: string, request: PageRequest, time: SandboxTime, spent?: (time: SandboxTime) => void): Promise<Planned>;
  render(context: PageContext, input: RenderInput): Promise<{ head: RenderedHead; html: string }>;
  /** Starts what renders (a warm start). */
  start(): Promise<void>;
  close(): Promise<void>;
};

/** A page the server does not render (not a public page, or a part without a server build): the browser renders it. */
export class NotServerRendered extends Error {}
