/**
 * The few web globals the parts' server builds use while rendering, inside the sandbox's isolate,
 * which has only the ECMAScript built-ins: URL and URLSearchParams (whatwg-url, the reference
 * implementation of the URL Standard), a UTF-8 TextEncoder/TextDecoder (whatwg-url needs them), a
 * minimal AbortController, timers that never fire (an isolate has no event loop: nothing a render
 * waits for may depend on time), queueMicrotask, crypto.getRandomValues over Math.random (nothing
 * secret is made in the sandbox) and a console that keeps what it is given for the renderer's log.
 *
 * Installed only where missing, before any other module of the runtime runs.
 */
// First: whatwg-url makes its encoder and decoder when it is loaded.
import './text-codec.ts';
import { URL as WhatwgUrl, URLSearchParams as WhatwgSearchParams } from 'whatwg-url';

type Listener = (event: { type: string }) => void;

class SandboxAbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: Listener | null = null;
  private readonly listeners = new Set<Listener>();
  addEventListener(type: string, listener: Listener) {
    if (type === 'abort') this.listeners.add(listener);
  }
  removeEventListener(type: string, listener: Listener) {
    if (type === 'abort') this.listeners.delete(listener);
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  /** Internal: called by the controller. */
  fire(reason: unknown) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new Error('This operation was aborted');
    const event = { type: 'abort' };
    this.onabort?.(event);
    for (const listener of [...this.listeners]) listener(event);
  }
}

class SandboxAbortController {
  readonly signal = new SandboxAbortSignal();
  abort(reason?: unknown) {
    this.signal.fire(reason);
  }
}

/** What console calls the renderer reports (bounded: a chatty build cannot fill the memory with them). */
const LOG_LIMIT = 50;
const logs: string[] = [];
const keep =
  (level: string) =>
  (...values: unknown[]) => {
    if (logs.length >= LOG_LIMIT) return;
    const text = values
      .map((value) => (value instanceof Error ? `${value.name}: ${value.message}` : typeof value === 'string' ? value : safeJson(value)))
      .join(' ');
    logs.push(`${level}: ${text.slice(0, 500)}`);
  };
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The console lines since the last call (at most LOG_LIMIT). */
export function takeLogs(): string[] {
  return logs.splice(0, logs.length);
}

const globals = globalThis as Record<string, unknown>;
const install = (name: string, value: unknown) => {
  if (globals[name] === undefined) Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
};

install('URL', WhatwgUrl);
install('URLSearchParams', WhatwgSearchParams);
install('AbortController', SandboxAbortController);
install('AbortSignal', SandboxAbortSignal);
install('queueMicrotask', (callback: () => void) => void Promise.resolve().then(callback));
let timers = 0;
// Timers never fire: a render never waits for time, and an effect's timer is the browser's business.
install('setTimeout', () => (timers += 1));
install('setInterval', () => (timers += 1));
install('clearTimeout', () => undefined);
install('clearInterval', () => undefined);
install('crypto', {
  getRandomValues<T extends ArrayBufferView>(array: T): T {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
    return array;
  },
});
// V8's own console in an isolate drops everything: this one keeps it for the renderer's log.
Object.defineProperty(globalThis, 'console', {
  value: { log: keep('log'), info: keep('info'), warn: keep('warn'), error: keep('error'), debug: keep('debug') },
  writable: true,
  configurable: true,
});
