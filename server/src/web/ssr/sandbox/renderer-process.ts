/**
 * A renderer process (started by renderer-pool.ts with an empty environment and Node's permission
 * model): one isolated-vm isolate, with a memory limit, in which the parts' server builds run with
 * nothing but the runtime (runtime/runtime.ts): no process, no environment, no file, no network.
 * It reads requests from stdin and answers on stdout (frames.ts), one at a time.
 *
 * The isolate keeps the runtime compiled once, each part's build compiled once (its bytes as the
 * server checked them against the signed manifest), and a few contexts (one per shell choice and
 * area, the least recently used dropped). A part that throws loses its context; one past its time
 * or its memory is reported, and the server replaces this process.
 *
 * A page's time is counted in CPU time (a busy machine slows a render without making it the
 * build's fault) and bounded in wall-clock time too: the calls run off this thread, which watches
 * this process's CPU time (the isolate's work is all it does meanwhile; isolated-vm's own `cpuTime`
 * counts waiting for a core as running) and disposes of the isolate when the page's share is spent.
 *
 * argv: isolated-vm's entry, the runtime bundle, the memory limit (MB), the time a call may run (ms).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as IsolatedVm from 'isolated-vm';
import { readFrames, writeFrame } from './frames.ts';
import type { ContextSpec, FailureReason, Planned, RenderedHead, RendererReply, RendererRequest, SandboxTime } from './protocol.ts';

const [ivmEntry, runtimeFile, memoryArg, timeoutArg] = process.argv.slice(2);
const ivm = createRequire(ivmEntry!)(ivmEntry!) as typeof IsolatedVm;
const memoryLimit = Number(memoryArg);
/** The most one call into the isolate may take, wall-clock (a part's evaluation, a plan, a render). */
const callLimit = Number(timeoutArg);
/** How often a call's CPU time is looked at (ms): a looping build runs at most this much past its share. */
const CPU_WATCH_MS = 5;
/** Contexts kept (choices × areas); parts' compiled builds kept. */
const MAX_CONTEXTS = 16;
const MAX_PARTS = 40;
/** The runtime's own evaluation in a new context: the server's code, bounded apart from the page's time. */
const RUNTIME_MS = 10_000;

const isolate = new ivm.Isolate({
  memoryLimit,
  // V8 cannot go on: nothing in this process is worth keeping, the server starts another.
  onCatastrophicError: () => process.abort(),
});
const runtime = isolate.compileScriptSync(readFileSync(runtimeFile!, 'utf8'), { filename: 'sandbox-runtime.js' });
const scripts = new Map<string, IsolatedVm.Script>();

type Calls = Record<'definePart' | 'createShell' | 'plan' | 'render' | 'collect', IsolatedVm.Reference<(...args: unknown[]) => unknown>>;
type Context = { context: IsolatedVm.Context; calls: Calls };
const contexts = new Map<string, Context>();

/** Thrown to ask the server for parts this renderer does not hold. */
class NeedParts extends Error {
  constructor(readonly parts: string[]) {
    super(`need ${parts.join(', ')}`);
  }
}

/** The part whose evaluation is running, for a failure's attribution. */
let evaluating: string | null = null;
/** The current request's time left, and what the parts' own code spent of it (the page's time). */
let left: SandboxTime = { cpuMs: 0, wallMs: 0 };
let spent: SandboxTime = { cpuMs: 0, wallMs: 0 };
/** Set when a call used the page's CPU time: the isolate was disposed of for it. */
let overCpu = false;

/** One call into the parts' code, stopped at what is left of the page's wall-clock time (isolated-vm's timeout) or CPU time (watched here). */
async function inParts<T>(call: (timeout: number) => Promise<T>): Promise<T> {
  const cpuLeft = left.cpuMs - spent.cpuMs;
  const wallLeft = Math.min(left.wallMs - spent.wallMs, callLimit);
  if (cpuLeft <= 0 || wallLeft <= 0) throw new Error('Script execution timed out: the page used its time in the sandbox');
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const cpuSince = () => {
    const used = process.cpuUsage(cpuStart);
    return (used.user + used.system) / 1000;
  };
  const watch = setInterval(() => {
    if (isolate.isDisposed || cpuSince() <= cpuLeft) return;
    overCpu = true;
    isolate.dispose();
  }, CPU_WATCH_MS);
  try {
    return await call(Math.max(1, Math.floor(wallLeft)));
  } finally {
    clearInterval(watch);
    spent.cpuMs += cpuSince();
    spent.wallMs += performance.now() - started;
  }
}

function send(header: RendererReply, body?: string) {
  writeFrame(process.stdout, header, body);
}

function dropContext(key: string) {
  const kept = contexts.get(key);
  if (!kept) return;
  contexts.delete(key);
  kept.context.release();
}

async function contextFor(id: number, spec: ContextSpec): Promise<Context> {
  const kept = contexts.get(spec.key);
  if (kept) {
    contexts.delete(spec.key);
    contexts.set(spec.key, kept);
    return kept;
  }
  const missing = [spec.shell, ...(spec.area ? [spec.area] : [])].filter((part) => !scripts.has(part));
  if (missing.length > 0) throw new NeedParts(missing);
  send({ id, type: 'preparing' });
  const context = isolate.createContextSync();
  try {
    runtime.runSync(context, { timeout: RUNTIME_MS });
    const sandbox = context.global.getSync('__sandbox', { reference: true }) as IsolatedVm.Reference<Record<string, unknown>>;
    const get = (name: keyof Calls) => sandbox.getSync(name, { reference: true }) as Calls[typeof name];
    const calls: Calls = {
      definePart: get('definePart'),
      createShell: get('createShell'),
      plan: get('plan'),
      render: get('render'),
      collect: get('collect'),
    };
    send({ id, type: 'started' });
    for (const part of [spec.shell, ...(spec.area ? [spec.area] : [])]) {
      evaluating = part;
      await inParts((timeout) => scripts.get(part)!.run(context, { timeout }));
      evaluating = null;
    }
    evaluating = spec.shell;
    await inParts((timeout) => calls.createShell.apply(undefined, [spec.shell, spec.area, spec.areaName, spec.options], { timeout }));
    evaluating = null;
    const made = { context, calls };
    contexts.set(spec.key, made);
    while (contexts.size > MAX_CONTEXTS) dropContext(contexts.keys().next().value as string);
    return made;
  } catch (error) {
    if (!isolate.isDisposed) context.release();
    throw error;
  }
}

function compilePart(part: string, code: string) {
  // The build as one function of the CommonJS wrapper's arguments, defined under its id; its own lines keep their numbers.
  const wrapped = `__sandbox.definePart(${JSON.stringify(part)}, function (exports, require, module, __filename, __dirname) {\n${code}\n});`;
  const script = isolate.compileScriptSync(wrapped, { filename: `/released/${part}/server/entry.cjs`, lineOffset: -1 });
  scripts.get(part)?.release();
  scripts.set(part, script);
  while (scripts.size > MAX_PARTS) {
    const oldest = scripts.keys().next().value as string;
    scripts.get(oldest)?.release();
    scripts.delete(oldest);
    for (const key of [...contexts.keys()]) if (key.includes(oldest)) dropContext(key);
  }
}

function reasonOf(error: unknown): FailureReason {
  const text = error instanceof Error ? error.message : String(error);
  if (overCpu || /timed out/i.test(text)) return 'timeout';
  if (isolate.isDisposed || /memory limit/i.test(text)) return 'memory';
  return 'error';
}

async function handle(request: RendererRequest, body: string) {
  try {
    if (request.type === 'part') {
      evaluating = request.part;
      compilePart(request.part, body);
      evaluating = null;
      send({ id: request.id, ok: true, part: request.part });
      return;
    }
    // The page's time left in the sandbox: every call into the parts' code for it stops at its end.
    left = request.time;
    spent = { cpuMs: 0, wallMs: 0 };
    const { calls } = await contextFor(request.id, request.context);
    if (request.type === 'plan') {
      await inParts((timeout) => calls.plan.apply(undefined, [request.url, JSON.stringify(request.basket)], { timeout }));
      const planned = (await inParts((timeout) => calls.collect.apply(undefined, [], { timeout, result: { copy: true } }))) as string;
      send({ id: request.id, ok: true, planned: JSON.parse(planned) as Planned, spent });
      return;
    }
    const args = [request.url, request.config, body, JSON.stringify(request.givenUp), request.origin];
    await inParts((timeout) => calls.render.apply(undefined, args, { timeout }));
    const [head, html] = (await inParts((timeout) => calls.collect.apply(undefined, [], { timeout, result: { copy: true } }))) as [
      string,
      string,
    ];
    send({ id: request.id, ok: true, head: JSON.parse(head) as RenderedHead, spent }, html);
  } catch (error) {
    if (error instanceof NeedParts) {
      send({ id: request.id, ok: false, need: error.parts });
      return;
    }
    const failure = reasonOf(error);
    const part = evaluating;
    evaluating = null;
    // A part that threw may have left its context half changed: the next render starts a fresh one.
    if (request.type !== 'part' && failure === 'error') dropContext(request.context.key);
    // The message and where it was thrown (the part's file and line), for the log; past its time, what it spent of which share.
    const thrown = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    const time =
      failure === 'timeout' && request.type !== 'part'
        ? ` [spent ${Math.round(spent.cpuMs)} of ${Math.round(left.cpuMs)} ms CPU, ${Math.round(spent.wallMs)} of ${Math.round(left.wallMs)} ms wall-clock]`
        : '';
    send({ id: request.id, ok: false, failure, message: `${thrown.slice(0, 1900)}${time}`, part });
  }
}

// One request at a time, in order (the server sends the next only after this one's answer).
let handling = Promise.resolve();
readFrames<RendererRequest>(
  process.stdin,
  ({ header, body }) => void (handling = handling.then(() => handle(header, body))),
  (error) => {
    process.stderr.write(`renderer: unreadable request: ${error.message}\n`);
    process.exit(70);
  },
);
// The server is gone (or closed this renderer): nothing is left to do.
process.stdin.on('end', () => process.exit(0));
send({ id: 0, type: 'ready' });
