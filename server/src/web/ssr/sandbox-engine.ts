/**
 * Pages rendered in the sandbox: the renderer pool's processes, each an isolate holding the parts'
 * server builds. The server checks a build's bytes against its signed manifest before it sends
 * them (only when a renderer asks: once per renderer and version); the data goes in as the page's
 * embedded JSON, the HTML comes back as it is.
 */
import {
  NotServerRendered,
  type PageContext,
  type PageEngine,
  type PartBuild,
  type Planned,
  type RenderedHead,
  type SandboxTime,
} from './page-engine.ts';
import { RendererPool, SandboxFailure, type RendererPoolOptions } from './sandbox/renderer-pool.ts';
import type { ContextSpec, RendererAsk, RendererReply } from './sandbox/protocol.ts';

export type SandboxEngineOptions = Omit<RendererPoolOptions, 'callMs' | 'watchdogMs' | 'watchdogSlackMs'> & {
  /** The part's checked code (verifiedServerBuild with its signed digest). */
  code: (part: PartBuild) => Promise<string>;
  /** The most one render may take, wall-clock (the render budget, ms): a call past it is stopped. */
  renderMs: number;
};

/** Room the watchdog leaves beyond a call's own limit (a renderer stops a call itself; one that cannot is killed). */
const WATCHDOG_SLACK_MS = 250;

type Exchange = (header: RendererAsk, body?: string) => Promise<{ header: RendererReply; body: string }>;

/** The work, telling `spent` how long the parts' code ran for it (the renderer counts it; its own work is not the page's time). */
function timing<T>(spent: ((time: SandboxTime) => void) | undefined, work: (exchange: Exchange) => Promise<T>) {
  return async (exchange: Exchange): Promise<T> =>
    work(async (header, body) => {
      const answer = await exchange(header, body);
      if ('spent' in answer.header) spent?.(answer.header.spent);
      return answer;
    });
}

export function sandboxEngine(options: SandboxEngineOptions): PageEngine & { pool: RendererPool } {
  const pool = new RendererPool({
    ...options,
    callMs: options.renderMs,
    watchdogMs: options.renderMs + WATCHDOG_SLACK_MS,
    watchdogSlackMs: WATCHDOG_SLACK_MS,
  });
  /** Each context's options as JSON, made once per choice. */
  const specs = new Map<string, ContextSpec>();
  const specOf = (context: PageContext): ContextSpec => {
    let spec = specs.get(context.key);
    if (!spec) {
      spec = {
        key: context.key,
        shell: context.shell.id,
        area: context.area?.id ?? null,
        areaName: context.area?.name ?? null,
        options: JSON.stringify({ releases: context.releases, assetOrigin: context.assetOrigin }),
      };
      specs.set(context.key, spec);
      while (specs.size > 64) specs.delete(specs.keys().next().value as string);
    }
    return spec;
  };
  const builds = (context: PageContext) => new Map([context.shell, ...(context.area ? [context.area] : [])].map((part) => [part.id, part]));

  /** Asks, sending the parts the renderer says it lacks (at most once each), then asking again. */
  async function ask(exchange: Exchange, context: PageContext, header: RendererAsk, body?: string) {
    const sent = new Set<string>();
    for (;;) {
      const answer = await exchange(header, body);
      const reply = answer.header;
      if (!('ok' in reply) || reply.ok || !('need' in reply)) return answer;
      const known = builds(context);
      for (const id of reply.need) {
        const part = known.get(id);
        if (!part || sent.has(id)) throw new SandboxFailure('error', `the renderer asked for ${id} again`, id);
        sent.add(id);
        // A part without a server build (or not as signed) is not rendered here: its pages render in the browser.
        const code = await options.code(part).catch((error: unknown) => {
          throw new NotServerRendered(`${id} has no server build to run: ${String(error)}`);
        });
        await exchange({ type: 'part', part: id }, code);
      }
    }
  }

  return {
    pool,
    start: () => pool.start(),
    close: () => pool.close(),
    plan: (context, url, request, time, spent) =>
      pool.run(
        timing(spent, async (exchange) => {
          const basket = request.basket ?? [];
          const { header } = await ask(exchange, context, { type: 'plan', context: specOf(context), url, basket, time });
          return (header as { planned: Planned }).planned;
        }),
      ),
    render: (context, input) => {
      // Made before the renderer is taken: the JSON is the page's own, used again in its HTML.
      const data = input.dataJson();
      const config = JSON.stringify(input.config);
      return pool.run(
        timing(input.spent, async (exchange) => {
          const { header, body } = await ask(
            exchange,
            context,
            {
              type: 'render',
              context: specOf(context),
              url: input.url,
              config,
              givenUp: [...input.givenUp],
              origin: input.origin,
              time: input.time,
            },
            data,
          );
          return { head: (header as { head: RenderedHead }).head, html: body };
        }),
      );
    },
  };
}
