/**
 * What the server asks a renderer process and what it answers (frames.ts carries them). The server
 * sends one request at a time to a renderer and waits for its answer (its watchdog times each one).
 */
import type { BasketEntry } from '@shop/shared-kernel/contract';

/**
 * One context of a renderer: the runtime, one shell instance (a choice of area versions) and at
 * most the one area its pages render. `key` names the whole choice; parts are `<part>/<version>`.
 */
export type ContextSpec = {
  key: string;
  shell: string;
  /** The area part whose pages this context renders (null: the shell's own pages and frames). */
  area: string | null;
  areaName: string | null;
  /** `createShellServer`'s options but the loader, as JSON (releases, asset origin). */
  options: string;
};

/**
 * The page's time in the sandbox, what is left of it or what a call spent: the CPU time the parts'
 * code may use (what a looping build exhausts, however busy the machine), and the wall-clock time
 * that bounds the wait when the machine is too busy to give it that CPU.
 */
export type SandboxTime = { cpuMs: number; wallMs: number };

export type RendererRequest =
  /** A part's server build, its bytes as signed (body): compiled once and kept by the renderer. */
  | { id: number; type: 'part'; part: string }
  /** `time`: what is left of the page's time in the sandbox; every call into the isolate for it stops then. */
  | { id: number; type: 'plan'; context: ContextSpec; url: string; basket: readonly BasketEntry[]; time: SandboxTime }
  /** body: the page's data as the page embeds it (EmbeddedServerData's JSON). */
  | { id: number; type: 'render'; context: ContextSpec; url: string; config: string; givenUp: string[]; origin: string; time: SandboxTime };

export type Planned = {
  route: { area: string; serverRender: boolean; name: string } | null;
  isPage: boolean;
  declared: { loads: { key: string }[]; headBeforeData: boolean } | null;
};

export type RenderedHead = {
  meta: { title: string | null; description?: string; canonical?: string | null; image?: string | null };
  picture: { src: string; srcSet?: string; sizes?: string } | null;
  jsonLd: { id: string; json: string }[];
  styles: { area: string; css: string }[];
  /** Keys the page asked for beyond its data (an area build from before route data discovers them). */
  pending: string[];
  /** Errors inside Suspense boundaries: those parts of the page are left to the browser. */
  errors: string[];
  /** Something the page waited for never settled: left to the browser. */
  waited: boolean;
  /** What the parts wrote to the console (bounded). */
  logs: string[];
};

/** Why a sandboxed render failed: the part threw, ran past its time, or past its memory. */
export type FailureReason = 'error' | 'timeout' | 'memory';

export type RendererReply =
  | { id: number; type: 'ready' }
  /**
   * The renderer makes a new context for the request (the runtime, the server's own code, runs
   * first: not the page's time), then starts on the parts' code: the server's watchdog waits
   * longer between the two.
   */
  | { id: number; type: 'preparing' }
  | { id: number; type: 'started' }
  /** `spent`: the time the parts' own code took for it (the page's time; the runtime's own work is not). */
  | { id: number; ok: true; planned: Planned; spent: SandboxTime }
  /** body: the page's HTML. */
  | { id: number; ok: true; head: RenderedHead; spent: SandboxTime }
  | { id: number; ok: true; part: string }
  /** The renderer does not hold these parts (any more): send them, then ask again. */
  | { id: number; ok: false; need: string[] }
  /** `part`: the part whose own code was running when it failed (its evaluation), if known. */
  | { id: number; ok: false; failure: FailureReason; message: string; part: string | null };

/** A request as the server asks it (the pool numbers it). */
export type RendererAsk = RendererRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;
