/**
 * `pnpm release flag <area> <name> on|off|<share>`: a signed move request on the origin, applied by
 * the shop's server like a pin (release/src/move-request.ts, domains/releases/move-requests.ts): a
 * team's key switches its own area's features only, a bad name or share is refused before anything
 * is read, the change is audited with the request's author, and open tabs get the switches over the
 * registry's event stream. On SQLite and PostgreSQL.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoveCommand, SigningKey } from '@shop/release';
import { flagShares } from '../../src/domains/releases/feature-flags.repository.ts';
import { registryEvents } from '../../src/web/registry-events.ts';
import type { TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import type { TestApi } from '../helpers/test-api.ts';
import { signedShop } from '../helpers/signed-shop.ts';

const shop = signedShop({ registryInDatabase: true });
const { storage, requestMove, auditRows } = shop;
let api: TestApi;
let checkoutKey: SigningKey;
const events = Fastify();
let eventsBase = '';
let base = '';

const configOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="shop-config">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as { flags: unknown };

beforeAll(async () => {
  let book: TrustedRegistry;
  ({ api, checkoutKey, book, base } = await shop.start());
  registryEvents(events, { storage, book, pollMs: 50, flags: () => flagShares(api.db) });
  eventsBase = await events.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await events.close();
  await shop.stop();
});

const flag = (area: string, name: string, share: number) => ({ op: 'flag', area, name, share }) as MoveCommand;

/** The switches an open tab's event stream sends next (the first one: those in force when it opened). */
async function nextFlags(reader: ReadableStreamDefaultReader<Uint8Array>, state: { text: string }): Promise<unknown> {
  const decoder = new TextDecoder();
  for (;;) {
    const match = /event: flags\ndata: (\{.*\})\n\n/.exec(state.text);
    if (match) {
      state.text = state.text.slice(match.index + match[0].length);
      return (JSON.parse(match[1]!) as { flags: unknown }).flags;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    state.text += decoder.decode(value);
  }
}

describe('a feature switch asked for with the release tool', () => {
  it('is set by the shop’s key or the area team’s, audited with its author, and sent to open tabs', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${eventsBase}/builds/events`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    const state = { text: '' };
    expect(await nextFlags(reader, state)).toEqual({});

    const off = await requestMove(flag('checkout', 'card-payment', 0), checkoutKey);
    expect(off).toMatchObject({ ok: true, flag: { area: 'checkout', name: 'card-payment', before: null, after: 0 } });
    expect((await flagShares(api.db)).checkout).toEqual({ 'card-payment': 0 });
    expect((await auditRows()).at(-1)).toMatchObject({
      actor: 'owner-tool',
      action: 'flag',
      part: 'checkout',
      allowed: 1,
      detail: 'card-payment: nezadaný → vypnutý',
    });
    expect(await nextFlags(reader, state)).toEqual({ checkout: { 'card-payment': 0 } });
    // A page served now carries them in its configuration (the server renders with them, the shell starts with them).
    expect(configOf(await (await fetch(`${base}/`)).text()).flags).toEqual({ checkout: { 'card-payment': 0 } });

    // The shop's key may switch any area's; made against any revision (a switch moves no version).
    const on = await requestMove(flag('checkout', 'card-payment', 100), shop.shopKey, '1');
    expect(on).toMatchObject({ ok: true, flag: { before: 0, after: 100 } });
    expect(await nextFlags(reader, state)).toEqual({ checkout: { 'card-payment': 100 } });
    controller.abort();
  });

  it('is refused for another area’s team, or with a bad name or share, and changes nothing', async () => {
    const before = await flagShares(api.db);
    expect(await requestMove(flag('catalog', 'compare', 0), checkoutKey)).toMatchObject({ ok: false, code: 'bad_signature' });
    for (const command of [
      flag('checkout', 'Card', 0),
      flag('checkout', 'ok', 101),
      flag('checkout', 'ok', 2.5),
      flag('warehouse', 'ok', 0),
    ]) {
      expect(await requestMove(command)).toMatchObject({ ok: false, code: 'bad_signature' });
    }
    expect(await requestMove({ op: 'flag', area: 'checkout', name: 'ok', share: '50' } as unknown as MoveCommand)).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    expect(await flagShares(api.db)).toEqual(before);
    expect((await auditRows()).filter((row) => row.action === 'move-request' && row.allowed === 0).length).toBeGreaterThanOrEqual(6);
  });
});
