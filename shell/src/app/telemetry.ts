/**
 * Client telemetry: page views and client errors per area and version (and the Web Vitals of
 * vitals.ts, and the kernel bus's `basket:added` as `basket-add`, attributed to the page in view:
 * the canary watch's add-to-basket guardrail), sent in batches to the API (`POST /api/telemetry`)
 * so the operator sees how a released version fares in real browsers.
 *
 * - Batches go by `navigator.sendBeacon` (a string body: text/plain), or by `fetch` with keepalive
 *   when there is no beacon or it refused the batch; flushed every few seconds, when a batch is
 *   full, and when the page is hidden or left.
 * - Sampling is decided once per page load: a page load reports all its views and errors or none,
 *   so the error rate of the sample is the real one.
 * - At most `maxEventsPerPage` events per page load; an error message is reported once per page load.
 * - Messages are scrubbed before they leave the browser: no query strings, e-mail addresses and long
 *   numbers masked, 300 characters at most. An error's stack goes with it as its frames (at most 16,
 *   the same scrubbing; a released file's address kept for the server to map with its source map).
 * - Events the API would refuse are never sent (unknown area, no released version, a bad name):
 *   one bad event would cost the whole batch.
 *
 * No React: the shell's boot installs it; the router and the area loader report through it.
 */
import { bus } from '@shop/shared-kernel';
import { clientStackFrames, scrubClientMessage } from '@shop/shared-kernel/rules';
import { isPart, type ClientErrorKind, type TelemetryArea, type TelemetryEvent } from '@shop/shared-kernel/contract';

export type TelemetryOptions = {
  /** Where batches go; default `/api/telemetry`. */
  endpoint?: string;
  /** Share of page loads that report (0..1); default 1. */
  sampleRate?: number;
  /** A batch waits at most this long (ms); default 5000. */
  flushMs?: number;
  /** Events per batch; default 20 (the API takes 50 and 16 KB). */
  maxBatch?: number;
  /** Events per page load; default 100. */
  maxEventsPerPage?: number;
  /** The sampling draw (tests); default Math.random. */
  random?: () => number;
  /** Sends a batch like navigator.sendBeacon (true: queued by the browser); default navigator.sendBeacon. */
  send?: (url: string, body: string) => boolean;
};

const VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
const ROUTE = /^[a-z0-9-]{1,40}$/;
/** The same scrubbing the server applies again (kernel rule). */
export const scrubMessage = scrubClientMessage;

type Settings = Required<Omit<TelemetryOptions, 'random' | 'send'>> & { send: ((url: string, body: string) => boolean) | null };

type State = {
  settings: Settings;
  /** This page load reports (drawn once at install). */
  sampled: boolean;
  queue: TelemetryEvent[];
  /** Events accepted in this page load (the cap counts them). */
  accepted: number;
  /** Errors already reported in this page load. */
  seenErrors: Set<string>;
  timer: ReturnType<typeof setTimeout> | null;
  current: { area: string; version: string | null; route: string } | null;
  /** The areas shown in this page load, from when (performance.now()), oldest first, the last 50. */
  shown: { at: number; area: string; version: string | null; route: string }[];
  /** The first view fell out of `shown`. */
  shownDropped: boolean;
};

let state: State | null = null;

/** What one request may carry, with room to spare below the API's 16 KB. */
const MAX_BODY_BYTES = 15 * 1024;
const byteLength = (text: string) => new TextEncoder().encode(text).length;

function defaultSend(url: string, body: string): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return false;
  return navigator.sendBeacon(url, body);
}

/** Sends the queued events now (a batch at a time). */
function flush(): void {
  if (!state) return;
  if (state.timer !== null) {
    clearTimeout(state.timer);
    state.timer = null;
  }
  const { settings } = state;
  while (state.queue.length > 0) {
    // The API takes 16 KB a request: a batch of long messages goes in smaller parts.
    let count = Math.min(settings.maxBatch, state.queue.length);
    let body = JSON.stringify({ events: state.queue.slice(0, count) });
    while (count > 1 && byteLength(body) > MAX_BODY_BYTES) {
      count = Math.ceil(count / 2);
      body = JSON.stringify({ events: state.queue.slice(0, count) });
    }
    state.queue.splice(0, count);
    let sent = false;
    try {
      sent = (settings.send ?? defaultSend)(settings.endpoint, body);
    } catch {
      sent = false;
    }
    // eslint-disable-next-line no-restricted-globals -- the telemetry beacon's keepalive fallback: no token, no answer read, not a shopper's API call
    if (!sent && typeof fetch === 'function') {
      // Never a rejection of its own: a failed report must not be reported again.
      try {
        // eslint-disable-next-line no-restricted-globals -- the telemetry beacon's keepalive fallback (see above)
        void fetch(settings.endpoint, {
          method: 'POST',
          body,
          keepalive: true,
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
        }).catch(() => undefined);
      } catch {
        // fetch refused the request (e.g. keepalive quota): the batch is dropped.
      }
    }
  }
}

/** Sends what is queued now (the vitals do when the page is hidden: no timer runs after that). */
export function flushTelemetry(): void {
  flush();
}

/** Queues an event the caller built and bounded (the vitals, vitals.ts); sampled and capped like the rest. */
export function enqueueEvent(event: TelemetryEvent): void {
  enqueue(event);
}

function enqueue(event: TelemetryEvent): void {
  if (!state || !state.sampled) return;
  if (state.accepted >= state.settings.maxEventsPerPage) return;
  state.accepted += 1;
  state.queue.push(event);
  if (state.queue.length >= state.settings.maxBatch) flush();
  else if (state.timer === null) state.timer = setTimeout(flush, state.settings.flushMs);
}

/** The event's common part, or null when the API would refuse it (unknown area, not released, bad version). */
export function base(area: string, version: string | null, route: string): Pick<TelemetryEvent, 'area' | 'version' | 'route'> | null {
  if (!isPart(area) || version === null || !VERSION.test(version)) return null;
  return { area: area as TelemetryArea, version, ...(ROUTE.test(route) ? { route } : {}) };
}

/** A page of `area` (in its released `version`) was shown for the route named `route`. */
export function reportPageView(area: string, version: string | null, route: string): void {
  const common = base(area, version, route);
  if (common) enqueue({ type: 'view', ...common });
}

/**
 * The shopper added pieces to the basket: counted for the area and version of the page in view (a
 * page of no released area, or before any, reports nothing). The server keeps it as a flag of the
 * session, so repeats cost a few bytes and count once.
 */
export function reportBasketAdd(): void {
  if (!state?.current) return;
  const { area, version, route } = state.current;
  const common = base(area, version, route);
  if (common) enqueue({ type: 'basket-add', ...common });
}

/** The stack text of what was thrown, when it is an error (anything else has none). */
export function stackOf(thrown: unknown): string | undefined {
  try {
    return thrown instanceof Error && typeof thrown.stack === 'string' ? thrown.stack : undefined;
  } catch {
    return undefined;
  }
}

/** An error in `area`, with the stack of what was thrown when there is one; the same message is reported once per page load. */
export function reportError(kind: ClientErrorKind, area: string, version: string | null, message: string, stack?: string): void {
  if (!state) return;
  const common = base(area, version, state.current?.area === area ? state.current.route : '');
  if (!common) return;
  const scrubbed = scrubMessage(message);
  const key = `${common.area}\u0000${common.version}\u0000${kind}\u0000${scrubbed}`;
  if (state.seenErrors.has(key)) return;
  state.seenErrors.add(key);
  const frames = clientStackFrames(stack);
  enqueue({ type: 'error', ...common, kind, message: scrubbed, ...(frames.length > 0 ? { stack: frames } : {}) });
}

/** The area rendering now: uncaught errors and unhandled rejections are attributed to it. */
export function setCurrentArea(area: string, version: string | null, route: string): void {
  if (!state) return;
  state.current = { area, version, route };
  state.shown.push({ at: typeof performance === 'undefined' ? 0 : performance.now(), area, version, route });
  if (state.shown.length > 50) {
    state.shown.shift();
    state.shownDropped = true;
  }
}

/**
 * What was shown at `time` (performance.now()'s clock): the last area shown by then, else the
 * first of the page load (a server-rendered page paints before the shell marks its area); null
 * before any. `first` says whether it is the page load's first view.
 */
export function shownAt(time: number): { area: string; version: string | null; route: string; first: boolean } | null {
  const shown = state?.shown ?? [];
  if (shown.length === 0) return null;
  let index = 0;
  for (let i = 0; i < shown.length; i += 1) if (shown[i]!.at <= time) index = i;
  const { area, version, route } = shown[index]!;
  return { area, version, route, first: index === 0 && !state!.shownDropped };
}

function describe(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'string') return value;
    return String(value);
  } catch {
    return 'Unknown error';
  }
}

/** Errors from browser extensions are not the shop's. */
const EXTENSION = /^(chrome|moz|safari(-web)?)-extension:/;

function onError(event: Event): void {
  if (!state?.current) return;
  const error = event as ErrorEvent;
  if (typeof error.filename === 'string' && EXTENSION.test(error.filename)) return;
  const message = error.message || describe(error.error);
  const { area, version } = state.current;
  reportError('uncaught', area, version, message, stackOf(error.error));
}

function onRejection(event: Event): void {
  if (!state?.current) return;
  const { area, version } = state.current;
  const { reason } = event as PromiseRejectionEvent;
  reportError('rejection', area, version, describe(reason), stackOf(reason));
}

function onVisibility(): void {
  if (document.visibilityState === 'hidden') flush();
}

/**
 * Starts reporting for this page load: draws the sample, listens to uncaught errors, unhandled
 * rejections and additions to the basket (the kernel bus), flushes when the page is hidden or left.
 * Returns the uninstall, which sends what is queued and stops (a later install is a new page load).
 */
export function installTelemetry(options: TelemetryOptions = {}): () => void {
  if (state) uninstall();
  const sampleRate = Math.min(1, Math.max(0, options.sampleRate ?? 1));
  const random = options.random ?? Math.random;
  state = {
    settings: {
      endpoint: options.endpoint ?? '/api/telemetry',
      sampleRate,
      flushMs: options.flushMs ?? 5000,
      maxBatch: Math.max(1, Math.min(50, options.maxBatch ?? 20)),
      maxEventsPerPage: options.maxEventsPerPage ?? 100,
      send: options.send ?? null,
    },
    sampled: sampleRate > 0 && random() < sampleRate,
    queue: [],
    accepted: 0,
    seenErrors: new Set(),
    timer: null,
    current: null,
    shown: [],
    shownDropped: false,
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onVisibility);
  bus.on('basket:added', reportBasketAdd);
  const own = state;
  // An uninstall only ever ends its own install.
  return () => {
    if (state === own) uninstall();
  };
}

function uninstall(): void {
  if (!state) return;
  flush();
  window.removeEventListener('error', onError);
  window.removeEventListener('unhandledrejection', onRejection);
  window.removeEventListener('pagehide', flush);
  document.removeEventListener('visibilitychange', onVisibility);
  bus.off('basket:added', reportBasketAdd);
  state = null;
}
