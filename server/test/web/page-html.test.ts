/**
 * The data a server-rendered page embeds for the browser's hydration (web/ssr/page-html.ts): the
 * answers loaded from the API in-process go in as the JSON text they came as, everything else
 * stringified; either way the same data as before, and nothing in it can end the script element.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedServerData, SettledLoad } from '@shop/shared-kernel/react';
import { embeddedJson, scriptJson } from '../../src/web/ssr/page-html.ts';
import { directLoad, serveApiInProcess } from '../../src/web/ssr/in-process-api.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ configure: (app) => serveApiInProcess(app) });
});
afterAll(async () => {
  await api?.close();
});

const settledLoad = async (key: string): Promise<SettledLoad> => ({ ok: true, data: await directLoad(key)!() });

describe("the page's embedded data", () => {
  it('is the answers as the API sent them, the same data as the stringified page data', async () => {
    const keys = ['GET /api/site', 'GET /api/menu', 'GET /api/page/doprava-a-platba'];
    const embedded: EmbeddedServerData = {
      path: '/doprava-a-platba',
      data: {
        ...Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await settledLoad(key)] as const))),
        'GET /api/product/neznamy': { ok: false, status: 404, message: 'Produkt sa nenašiel.' },
        // A value that did not come in-process (the kernel's own client): stringified.
        'GET /api/other': { ok: true, data: { name: 'Tehla </script><!-- \u2028' } },
      },
      notFound: false,
    };
    const json = embeddedJson(embedded);
    expect(JSON.parse(json)).toEqual(JSON.parse(scriptJson(embedded)));
    // The static page's HTML comes as the API sent it, its markup escaped for the script element.
    const sent = (await api.request('GET', '/api/page/doprava-a-platba')).text;
    expect(sent).toContain('<h2>');
    expect(json).toContain(sent.replace(/</g, '\\u003c'));
    expect(json).not.toMatch(/<|\u2028|\u2029/);
  });

  it('carries a page that was not found as such', () => {
    const embedded: EmbeddedServerData = { path: '/p/neznamy', data: {}, notFound: true };
    expect(JSON.parse(embeddedJson(embedded))).toEqual(embedded);
  });

  it('carries the basket the page was rendered with, for its hydration', () => {
    const embedded: EmbeddedServerData = { path: '/checkout/cart', data: {}, notFound: false, basket: [{ v_id: 12, amount: 3 }] };
    expect(JSON.parse(embeddedJson(embedded))).toEqual(embedded);
  });
});
