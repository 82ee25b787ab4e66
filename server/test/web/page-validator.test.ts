import { describe, expect, it } from 'vitest';
import { CatalogChanges } from '../../src/infra/cache/catalog-version.ts';
import { PageValidators, productsOf, VALIDATOR_LIFETIME_MS } from '../../src/web/page-validator.ts';

/** Monday 2026-11-23 10:00 in Bratislava (UTC+1): the header says "open today until 15:30". */
const MONDAY_MORNING = Date.UTC(2026, 10, 23, 9, 0, 0);
const SHELL = [
  '/origin/shells/shell/1.0.0-a',
  'policy r1',
  '<script>{"registry":{"revision":"r1"}}</script>',
  '',
  '<section>consent</section>',
];
/** A product page's embedded data: the product, and tiles of related ones. */
const PRODUCT_PAGE = { data: { 'GET /api/product/tehla': { ok: true, data: { data: { p_id: 7, related: [{ p_id: 8 }, { p_id: 9 }] } } } } };

function setup() {
  let now = MONDAY_MORNING;
  const changes = new CatalogChanges();
  const validators = new PageValidators({ changes, now: () => now });
  return {
    changes,
    validators,
    at: (ms: number) => void (now = ms),
    /** The page is rendered now (its tag kept); answers that tag. */
    render: (url = '/p/tehla', parts = SHELL, data: unknown = PRODUCT_PAGE) => {
      const validator = validators.forPage(url, parts);
      validator.rendered(data);
      return validator.tag;
    },
    check: (tag: string, url = '/p/tehla', parts = SHELL) => validators.forPage(url, parts).confirmed(tag),
  };
}

describe('the validator of a public page', () => {
  it('confirms the tag of the page this process rendered, while nothing the page depends on changed', () => {
    const { render, check, at } = setup();
    const tag = render();
    expect(tag).toMatch(/^W\/"[\w-]+\.[0-9a-z]+\.[0-9a-z]+"$/);
    expect(check(tag)).toBe(tag);
    // Time alone does not change the page (the opening-hours text stays the same) …
    at(MONDAY_MORNING + VALIDATOR_LIFETIME_MS / 2);
    expect(check(tag)).toBe(tag);
    // … and nginx may send the tag among others, as a browser may.
    expect(check(`W/"other.1.1", ${tag}`)).toBe(tag);
  });

  it('never confirms a tag whose page was not rendered whole, nor one of another process or another address', () => {
    const { validators, render, check, changes } = setup();
    const failed = validators.forPage('/c/tehly', SHELL).tag;
    expect(check(failed, '/c/tehly')).toBeNull();
    const tag = render();
    // Another server (or this one after a restart) counts its catalog on its own.
    const other = new PageValidators({ changes, now: () => MONDAY_MORNING });
    expect(other.forPage('/p/tehla', SHELL).confirmed(tag)).toBeNull();
    expect(check(tag, '/p/tvarnica')).toBeNull();
    // A render that warned (data left to the browser, a part that failed) is not the whole page.
    const partial = validators.forPage('/c/tehly', SHELL);
    const warnings: string[] = [];
    partial.watch({ warn: (_object, message) => warnings.push(message), error: () => undefined }).warn({}, 'left data to the browser');
    partial.rendered(PRODUCT_PAGE);
    expect(warnings).toEqual(['left data to the browser']);
    expect(check(partial.tag, '/c/tehly')).toBeNull();
    // Nor is the whole render's tag before it: the page cache now holds the partial page.
    const whole = render('/c/tehly');
    const again = validators.forPage('/c/tehly', SHELL);
    again.watch({ warn: () => undefined, error: () => undefined }).error({}, 'a part failed');
    again.rendered(PRODUCT_PAGE);
    expect(check(whole, '/c/tehly')).toBeNull();
    expect(validators.forPage('/c/tehly', SHELL).keptTag()).toBeNull();
    expect(check('*')).toBeNull();
    expect(check('')).toBeNull();
    expect(check(`${tag}, ${'x'.repeat(2000)}`)).toBeNull();
  });

  it('moves with the shell, the embedded configuration, the policy and the first frame', () => {
    const { render, check } = setup();
    const tag = render();
    for (let i = 0; i < SHELL.length; i++) {
      const changed = SHELL.map((part, j) => (j === i ? `${part} changed` : part));
      expect(check(tag, '/p/tehla', changed), `part ${i}`).toBeNull();
    }
    expect(check(tag)).toBe(tag);
  });

  it('moves with a change of the whole catalog (a price change, an import)', () => {
    const { render, check, changes } = setup();
    const tag = render();
    changes.record({ kind: 'all' });
    expect(check(tag)).toBeNull();
    const next = render();
    expect(next).not.toBe(tag);
    expect(check(next)).toBe(next);
  });

  it('moves with a stock change of a product the page shows, not with one of another product', () => {
    const { render, check, changes } = setup();
    const tag = render();
    changes.record({ kind: 'products', ids: [100, 200] });
    expect(check(tag)).toBe(tag);
    // A related product's tile shows its stock too.
    changes.record({ kind: 'products', ids: [9] });
    expect(check(tag)).toBeNull();
    // A page without products (an article) holds through stock changes.
    const article = render('/blog/clanok/a', SHELL, { data: { 'GET /api/blog/a': { ok: true, data: { data: { title: 'a' } } } } });
    changes.record({ kind: 'products', ids: [7] });
    expect(check(article, '/blog/clanok/a')).toBe(article);
  });

  it('moves when changes are too many to tell which products they touched', () => {
    const changes = new CatalogChanges(2);
    const validators = new PageValidators({ changes, now: () => MONDAY_MORNING });
    const validator = validators.forPage('/p/tehla', SHELL);
    validator.rendered(PRODUCT_PAGE);
    for (const id of [100, 101, 102]) changes.record({ kind: 'products', ids: [id] });
    expect(validators.forPage('/p/tehla', SHELL).confirmed(validator.tag)).toBeNull();
  });

  it("moves when the header's opening-hours text changes, at 15:30 and at midnight", () => {
    const { render, check, at } = setup();
    // Monday 15:29 in Bratislava: "Dnes otvorené do 15:30".
    at(Date.UTC(2026, 10, 23, 14, 29, 0));
    const before = render();
    at(Date.UTC(2026, 10, 23, 14, 29, 59));
    expect(check(before)).toBe(before);
    // 15:30: "Zajtra otvorené od 08:00".
    at(Date.UTC(2026, 10, 23, 14, 30, 0));
    expect(check(before)).toBeNull();
    const evening = render();
    expect(evening).not.toBe(before);
    // Tuesday 00:00: "Dnes otvorené do 15:30" again.
    at(Date.UTC(2026, 10, 23, 23, 0, 0));
    expect(check(evening)).toBeNull();
  });

  it('is confirmed for its lifetime at most: what changes unannounced is seen within it', () => {
    const { render, check, at } = setup();
    const tag = render();
    at(MONDAY_MORNING + VALIDATOR_LIFETIME_MS - 1000);
    expect(check(tag)).toBe(tag);
    at(MONDAY_MORNING + VALIDATOR_LIFETIME_MS);
    expect(check(tag)).toBeNull();
  });

  it("gives a page from the server's page cache the tag of the render it came from, never a newer one", () => {
    const { validators, render, changes } = setup();
    const tag = render();
    expect(validators.forPage('/p/tehla', SHELL).keptTag()).toBe(tag);
    // A stock change of its product after the render: the kept page may be older than the change.
    changes.record({ kind: 'products', ids: [7] });
    expect(validators.forPage('/p/tehla', SHELL).keptTag()).toBeNull();
    expect(validators.forPage('/c/tehly', SHELL).keptTag()).toBeNull();
  });

  it('keeps a bounded number of pages, the least recently used going first', () => {
    const changes = new CatalogChanges();
    const validators = new PageValidators({ changes, maxPages: 2, now: () => MONDAY_MORNING });
    const tags = ['/a', '/b', '/c'].map((url) => {
      const validator = validators.forPage(url, SHELL);
      validator.rendered({});
      return validator.tag;
    });
    expect(validators.size()).toBe(2);
    expect(validators.forPage('/a', SHELL).confirmed(tags[0])).toBeNull();
    expect(validators.forPage('/c', SHELL).confirmed(tags[2])).toBe(tags[2]);
  });
});

describe('the products a page shows', () => {
  it('are every p_id in its data, however deep', () => {
    expect(productsOf(PRODUCT_PAGE)?.sort()).toEqual([7, 8, 9]);
    expect(productsOf({ list: [{ tiles: [{ p_id: 1 }, { p_id: 1 }, { p_id: '2' }] }] })).toEqual([1]);
    expect(productsOf(null)).toEqual([]);
  });
});
