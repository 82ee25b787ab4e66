/**
 * The server's renderer processes (renderer-process.ts): started with `process.execPath` and
 * `--no-node-snapshot` (isolated-vm needs it), an empty environment (none of the server's
 * variables), Node's permission model (files readable: the renderer's two files and isolated-vm;
 * nothing writable; no child process, no worker; native addons allowed for isolated-vm alone,
 * which the isolate cannot load), and stdin/stdout as their only channel.
 *
 * Work waits in one queue; each renderer takes one piece at a time (a piece may be several
 * exchanges: a part's code the renderer asks for, then the request again). Every exchange has a
 * watchdog: a renderer that does not answer in time is killed. A renderer that ran past its time
 * or memory, hung or died is replaced; the piece of work fails with a SandboxFailure.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFrames, writeFrame } from './frames.ts';
import type { RendererAsk, RendererReply } from './protocol.ts';

/** Why a sandboxed render failed (the renderer's own reasons and the server's). */
export type SandboxFailureReason = 'error' | 'timeout' | 'memory' | 'hang' | 'crash';

export class SandboxFailure extends Error {
  constructor(
    readonly reason: SandboxFailureReason,
    message: string,
    /** The part whose own code was running (its evaluation), when the renderer knew it. */
    readonly part: string | null = null,
  ) {
    super(message);
    this.name = 'SandboxFailure';
  }
}

/** No renderer could take the work in time (all busy, or none could start): the browser renders the page. */
export class RenderersUnavailable extends Error {}

export type RendererFiles = { renderer: string; runtime: string; isolatedVm: string; readable: string[] };

export type RendererPoolOptions = {
  files: () => Promise<RendererFiles>;
  size: number;
  /** The isolate's heap limit (MB). */
  memoryMb: number;
  /** The most one call into the isolate may run (ms): the renderer stops it. */
  callMs: number;
  /** The most the server waits for one answer (ms) before it kills the renderer. */
  watchdogMs: number;
  /** For a request with its own time: how much longer than that time the server waits before it kills the renderer. */
  watchdogSlackMs: number;
  /** The most a piece of work may wait for a renderer (ms). */
  queueMs: number;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
};

type Exchange = (header: RendererAsk, body?: string) => Promise<{ header: RendererReply; body: string }>;
type Work = {
  run: (exchange: Exchange) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  since: number;
};

type Renderer = {
  child: ChildProcessWithoutNullStreams;
  ready: boolean;
  busy: boolean;
  /** The answer awaited, with its watchdog. */
  waiting: {
    id: number;
    resolve: (frame: { header: RendererReply; body: string }) => void;
    reject: (error: unknown) => void;
    timer: NodeJS.Timeout;
    /** The watchdog's time for the request's own work. */
    watchdogMs: number;
  } | null;
  gone: boolean;
};

/** Standard error kept per renderer for the log of its end. */
const STDERR_KEPT = 4096;
/** How long a renderer may take to make a new context's runtime (its own code, before the parts'). */
const PREPARING_MS = 15_000;
/** A renderer that dies this soon after its start counts as a failed start (backoff). */
const EARLY_DEATH_MS = 2000;

/** Every pool not closed yet in this process (tests check that none outlives its server). */
const pools = new Set<RendererPool>();
export const livePools = (): RendererPool[] => [...pools];

export class RendererPool {
  private readonly renderers = new Set<Renderer>();
  private readonly queue: Work[] = [];
  private nextId = 1;
  private closed = false;
  private starting: Promise<RendererFiles> | null = null;
  private failedStarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** When a renderer was first ready: waiting for the pool's own start is not waiting for a busy renderer. */
  private readySince: number | null = null;

  constructor(private readonly options: RendererPoolOptions) {
    pools.add(this);
  }

  /** Starts the renderers now (a warm start) instead of with the first page. */
  async start(): Promise<void> {
    await this.fill();
  }

  /** Renderers running (for tests and metrics). */
  pids(): number[] {
    return [...this.renderers].filter((renderer) => !renderer.gone).map((renderer) => renderer.child.pid!);
  }

  /** Runs `work` on one renderer, alone; rejects with SandboxFailure or RenderersUnavailable. */
  run<T>(work: (exchange: Exchange) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new RenderersUnavailable('the renderers are closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject, since: Date.now() });
      void this.fill().then(
        () => this.dispatch(),
        (error: unknown) => {
          this.options.log.error({ err: error }, 'server-render sandbox: renderers cannot start; pages render in the browser');
          this.failQueue(new RenderersUnavailable(`the renderers cannot start: ${String(error)}`));
        },
      );
    });
  }

  /** Stops every renderer and refuses new work; resolves when all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    pools.delete(this);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.failQueue(new RenderersUnavailable('the server is stopping'));
    await Promise.all([...this.renderers].map((renderer) => this.stop(renderer, 'the server is stopping')));
  }

  private failQueue(error: Error) {
    for (const work of this.queue.splice(0, this.queue.length)) work.reject(error);
  }

  private async fill(): Promise<void> {
    if (this.closed) return;
    const files = await (this.starting ??= this.options.files());
    while (!this.closed && this.renderers.size < this.options.size) this.spawn(files);
  }

  private spawn(files: RendererFiles) {
    const args = [
      '--no-node-snapshot',
      '--experimental-permission',
      // isolated-vm is a native addon; the parts inside the isolate can load none.
      '--allow-addons',
      ...files.readable.map((path) => `--allow-fs-read=${path}`),
      '--disable-warning=ExperimentalWarning',
      '--disable-warning=SecurityWarning',
      files.renderer,
      files.isolatedVm,
      files.runtime,
      String(this.options.memoryMb),
      String(this.options.callMs),
    ];
    const child = spawn(process.execPath, args, { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    const renderer: Renderer = { child, ready: false, busy: false, waiting: null, gone: false };
    const startedAt = Date.now();
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-STDERR_KEPT)));
    child.stdin.on('error', () => undefined);
    readFrames<RendererReply>(
      child.stdout,
      (frame) => {
        if ('type' in frame.header && frame.header.type === 'ready') {
          renderer.ready = true;
          this.readySince ??= Date.now();
          this.failedStarts = 0;
          this.dispatch();
          return;
        }
        const waiting = renderer.waiting;
        if (!waiting || waiting.id !== frame.header.id) return;
        clearTimeout(waiting.timer);
        // A new context's runtime runs first (the server's code): the watchdog waits for it, then times the parts' work.
        if ('type' in frame.header && (frame.header.type === 'preparing' || frame.header.type === 'started')) {
          const ms = frame.header.type === 'preparing' ? PREPARING_MS : waiting.watchdogMs;
          waiting.timer = this.watchdog(renderer, ms);
          return;
        }
        renderer.waiting = null;
        waiting.resolve(frame);
      },
      (error) => this.replace(renderer, new SandboxFailure('crash', `unreadable answer: ${error.message}`)),
    );
    child.on('error', (error) => this.replace(renderer, new SandboxFailure('crash', error.message)));
    child.on('exit', (code, signal) => {
      const early = Date.now() - startedAt < EARLY_DEATH_MS && !renderer.ready;
      if (!renderer.gone && !this.closed) {
        this.options.log.error(
          { renderer: { pid: child.pid, code, signal, stderr: stderr.trim().slice(-1000) } },
          'server-render sandbox: a renderer ended',
        );
      }
      if (early && !this.closed) this.failedStarts += 1;
      this.replace(renderer, new SandboxFailure('crash', `the renderer ended (${signal ?? `exit ${code}`})`));
    });
    this.renderers.add(renderer);
  }

  /** Takes `renderer` out (killing it if it still runs), fails its exchange, and starts another. */
  private replace(renderer: Renderer, failure: SandboxFailure) {
    const first = !renderer.gone;
    renderer.gone = true;
    if (renderer.child.exitCode === null && renderer.child.signalCode === null) renderer.child.kill('SIGKILL');
    const waiting = renderer.waiting;
    renderer.waiting = null;
    if (waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(failure);
    }
    if (!first) return;
    this.renderers.delete(renderer);
    if (this.closed) return;
    // A renderer that cannot even start is not started again at once, nor forever at full speed.
    const delay = this.failedStarts === 0 ? 0 : Math.min(30_000, 250 * 2 ** Math.min(this.failedStarts, 7));
    if (this.failedStarts >= 3) this.failQueue(new RenderersUnavailable('the renderers keep failing to start'));
    const restart = () => {
      this.restartTimer = null;
      void this.fill().catch(() => undefined);
    };
    if (delay === 0) restart();
    else this.restartTimer ??= setTimeout(restart, delay);
  }

  private stop(renderer: Renderer, why: string): Promise<void> {
    return new Promise((resolve) => {
      const { child } = renderer;
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      renderer.gone = true;
      const waiting = renderer.waiting;
      renderer.waiting = null;
      if (waiting) {
        clearTimeout(waiting.timer);
        waiting.reject(new RenderersUnavailable(why));
      }
      // Its stdin ending makes it exit by itself; one that does not is killed.
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 1000).unref();
    });
  }

  private dispatch() {
    for (const renderer of this.renderers) {
      if (!renderer.ready || renderer.busy || renderer.gone) continue;
      let work = this.queue.shift();
      // Work that waited past its time is left to the browser rather than made later still.
      while (work && Date.now() - Math.max(work.since, this.readySince ?? Infinity) > this.options.queueMs) {
        work.reject(new RenderersUnavailable('every renderer was busy'));
        work = this.queue.shift();
      }
      if (!work) return;
      renderer.busy = true;
      work
        .run((header, body) => this.exchange(renderer, header, body))
        .then(
          (value) => {
            renderer.busy = false;
            work.resolve(value);
            this.dispatch();
          },
          (error: unknown) => {
            renderer.busy = false;
            // Past its time or memory: nothing of that renderer is trusted to go on.
            if (error instanceof SandboxFailure && (error.reason === 'timeout' || error.reason === 'memory')) this.replace(renderer, error);
            work.reject(error);
            this.dispatch();
          },
        );
    }
  }

  private watchdog(renderer: Renderer, ms: number): NodeJS.Timeout {
    return setTimeout(() => this.replace(renderer, new SandboxFailure('hang', `no answer within ${ms} ms`)), ms);
  }

  private exchange(renderer: Renderer, header: RendererAsk, body = ''): Promise<{ header: RendererReply; body: string }> {
    if (renderer.gone) return Promise.reject(new SandboxFailure('crash', 'the renderer ended'));
    const id = this.nextId++;
    // A request with its own time (the page's time left) is watched for that time and the slack beyond;
    // compiling a part's code (the renderer's own work) gets as long as making a context's runtime.
    const watchdogMs =
      'time' in header
        ? header.time.wallMs + this.options.watchdogSlackMs
        : header.type === 'part'
          ? PREPARING_MS
          : this.options.watchdogMs;
    return new Promise<{ header: RendererReply; body: string }>((resolve, reject) => {
      renderer.waiting = { id, resolve, reject, timer: this.watchdog(renderer, watchdogMs), watchdogMs };
      writeFrame(renderer.child.stdin, { ...header, id }, body);
    }).then((frame) => {
      const reply = frame.header;
      if ('ok' in reply && !reply.ok && 'failure' in reply) throw new SandboxFailure(reply.failure, reply.message, reply.part);
      return frame;
    });
  }
}
