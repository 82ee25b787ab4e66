/**
 * A release reaches shoppers through the cluster, wherever the release origin is (a directory, or an
 * S3 bucket in `npm test`'s second pass, which runs this file and the other ORIGIN_DEPENDENT ones):
 * open tabs on either server hear of it at once, and nginx's kept pages show it within the bound.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { changedFrom } from './helpers/changed-from.ts';
import { BOUND_MS, currentRevision, nextCatalogBuild, pollUntil, release, revisionOf, SEEN_BY_SERVERS_MS } from './helpers/edge-pages.ts';

const cluster = inject('cluster');
const [webA, webB] = cluster.web as [string, string];
let db: pg.Pool;
beforeAll(() => {
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
});
afterAll(async () => {
  await db?.end();
});

describe('a release through two servers behind nginx', () => {
  it('a registry change reaches open tabs whichever server they are connected to', async () => {
    const listen = (server: string) => {
      const controller = new AbortController();
      const revisions: string[] = [];
      const done = (async () => {
        const res = await fetch(`${server}/builds/events`, { signal: controller.signal });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done: ended } = await reader.read();
          if (ended) return;
          buffer += value;
          for (const match of buffer.matchAll(/event: registry\ndata: (.*)\n\n/g))
            revisions.push((JSON.parse(match[1]!) as { revision: string }).revision);
          buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
        }
      })().catch(() => {});
      return { revisions, close: () => controller.abort(), done };
    };
    const tabs = [listen(webA), listen(webB)];
    const waitFor = async (test: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!test() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return test();
    };
    expect(await waitFor(() => tabs.every((t) => t.revisions.length >= 1), 5_000)).toBe(true);
    const first = tabs[0]!.revisions[0];
    expect(tabs[1]!.revisions[0]).toBe(first);
    // A team deploys a new catalog version with the release command on this machine.
    release(['deploy', 'catalog', '--dist', nextCatalogBuild('catalog-next'), '--no-build', '--reason', 'cluster test']);
    expect(await waitFor(() => tabs.every((t) => t.revisions.length >= 2), 5_000)).toBe(true);
    expect(tabs[0]!.revisions.at(-1)).not.toBe(first);
    expect(tabs[1]!.revisions.at(-1)).toBe(tabs[0]!.revisions.at(-1));
    for (const tab of tabs) tab.close();
  });

  it('a release is seen through nginx within the bound', async () => {
    const path = `/c/${(await db.query<{ cat_url: string }>('select cat_url from categories order by cat_id limit 1')).rows[0]!.cat_url}`;
    const old = await pollUntil(path, (p) => p.edge === 'HIT', 30_000);
    expect(old.last.edge).toBe('HIT');
    const before = revisionOf(old.last.html);
    expect(before).toBe(await currentRevision());

    release(['deploy', 'catalog', '--dist', nextCatalogBuild('catalog-edge-release'), '--no-build', '--reason', 'edge cache test']);
    // The bound counts from the moment the servers answer with the move in force.
    const after = await changedFrom(before!, currentRevision);
    const released = Date.now();
    expect(after).not.toBe(before);
    const seen = await pollUntil(path, (p) => revisionOf(p.html) === after, BOUND_MS + SEEN_BY_SERVERS_MS + 20_000);
    expect(revisionOf(seen.last.html)).toBe(after);
    expect(seen.at - released).toBeLessThanOrEqual(BOUND_MS + SEEN_BY_SERVERS_MS);
  });
});
