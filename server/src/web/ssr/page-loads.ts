/**
 * The data loads of one server render (see page-render.ts).
 */
import type { SettledLoad } from '@shop/shared-kernel/react';

export type Load = (signal: AbortSignal) => Promise<unknown>;

/**
 * The loads of one page: each key loads once, however many renders ask for it, and whatever is
 * still on its way at the deadline (or when the page is done) is abandoned.
 */
export function pageLoads(deadline: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
  const started = new Map<string, Promise<[string, SettledLoad | null]>>();
  const start = (key: string, load: Load): Promise<[string, SettledLoad | null]> =>
    load(controller.signal).then(
      (data) => [key, { ok: true, data }],
      (error: unknown) => {
        if (controller.signal.aborted) return [key, null];
        const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
        return [key, { ok: false, status, message: error instanceof Error ? error.message : String(error) }];
      },
    );
  return {
    /**
     * Settles the pending loads: all of them, or, with `headWaitMs`, those there by that long after
     * the first came (the rest keep loading for the next render). Not there by the deadline: left out.
     */
    async settle(pending: Map<string, Load>, headWaitMs: number | null): Promise<Map<string, SettledLoad>> {
      const results = new Map<string, SettledLoad>();
      const waiting = [...pending].map(([key, load]) => {
        let loading = started.get(key);
        if (!loading) started.set(key, (loading = start(key, load)));
        return loading.then(([, settled]) => void (settled && results.set(key, settled)));
      });
      const all = Promise.all(waiting);
      if (headWaitMs === null) await all;
      else {
        await Promise.race(waiting);
        let wait: NodeJS.Timeout | undefined;
        await Promise.race([all, new Promise((resolve) => (wait = setTimeout(resolve, headWaitMs)))]);
        clearTimeout(wait);
      }
      const settled = new Map(results);
      for (const key of settled.keys()) started.delete(key);
      return settled;
    },
    close() {
      clearTimeout(timer);
      // Only what is still on its way needs telling (an abort builds an error with its stack: not free on every page).
      if (started.size > 0) controller.abort();
    },
  };
}
