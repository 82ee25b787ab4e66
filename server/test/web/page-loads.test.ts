import { describe, expect, it } from 'vitest';
import { pageLoads, type Load } from '../../src/web/ssr/page-loads.ts';

/** A load that answers `value` after `ms`, counting its calls and noticing an abort. */
function slow(ms: number, value: unknown, calls: { n: number; aborted: number }): Load {
  return (signal) =>
    new Promise((resolve, reject) => {
      calls.n += 1;
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        resolve(value);
      }, ms);
      signal.addEventListener('abort', () => {
        if (done) return;
        clearTimeout(timer);
        calls.aborted += 1;
        reject(new Error('aborted'));
      });
    });
}

const fresh = () => ({ n: 0, aborted: 0 });

describe('pageLoads', () => {
  it('without a head to send, settles every load the render asked for', async () => {
    const loads = pageLoads(Date.now() + 2000);
    const calls = fresh();
    const settled = await loads.settle(
      new Map([
        ['category', slow(1, 'c', calls)],
        ['products', slow(60, 'p', calls)],
      ]),
      null,
    );
    expect([...settled]).toEqual([
      ['category', { ok: true, data: 'c' }],
      ['products', { ok: true, data: 'p' }],
    ]);
    loads.close();
  });

  it('with a head to send, settles what came shortly after the first; the rest comes at the next render, loaded once', async () => {
    const loads = pageLoads(Date.now() + 2000);
    const category = fresh();
    const products = fresh();
    const first = await loads.settle(
      new Map([
        ['category', slow(1, 'c', category)],
        ['products', slow(150, 'p', products)],
      ]),
      10,
    );
    expect([...first.keys()], 'the category, to render the head with its title').toEqual(['category']);
    // The next render asks for the listing again (it has no data yet): the load already on its way answers.
    const second = await loads.settle(new Map([['products', slow(150, 'p', products)]]), null);
    expect(second.get('products')).toEqual({ ok: true, data: 'p' });
    expect(products.n, 'the listing loaded once').toBe(1);
    loads.close();
  });

  it('with a head to send, waits for data that all comes close together: one render with all of it', async () => {
    const loads = pageLoads(Date.now() + 2000);
    const calls = fresh();
    const settled = await loads.settle(
      new Map([
        ['category', slow(1, 'c', calls)],
        ['products', slow(4, 'p', calls)],
      ]),
      50,
    );
    expect([...settled.keys()].sort()).toEqual(['category', 'products']);
    loads.close();
  });

  it('keeps a failure with its status, leaves out what the deadline cut off, and abandons what is left when the page is done', async () => {
    const loads = pageLoads(Date.now() + 40);
    const calls = fresh();
    const missing: Load = () => Promise.reject(Object.assign(new Error('nenájdené'), { status: 404 }));
    const settled = await loads.settle(
      new Map([
        ['product', missing],
        ['related', slow(5_000, 'r', calls)],
      ]),
      null,
    );
    expect([...settled]).toEqual([['product', { ok: false, status: 404, message: 'nenájdené' }]]);
    expect(calls.aborted, 'the slow load abandoned at the deadline').toBe(1);

    const later = pageLoads(Date.now() + 2000);
    const left = fresh();
    await later.settle(
      new Map([
        ['menu', slow(1, 'm', left)],
        ['blog', slow(5_000, 'b', left)],
      ]),
      5,
    );
    later.close();
    expect(left.aborted, 'the page is done: its load still on the way is abandoned').toBe(1);
  });
});
