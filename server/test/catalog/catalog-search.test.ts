import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { SearchResults, SearchSuggestions } from '@shop/shared-kernel/contract';
import { queryTokens } from '../../src/domains/catalog/search/search.service.ts';
import { RANKED_HITS, SearchRepository, ftsQuery, prefixQuery, tsQuery } from '../../src/domains/catalog/search/search.repository.ts';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import { catalogChanged } from '../../src/infra/cache/catalog-version.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function search(q: string, page = 1): Promise<SearchResults> {
  const res = await api.get<SearchResults>(`/api/search?q=${encodeURIComponent(q)}&page=${page}`);
  expect(res.status, q).toBe(200);
  return res.body;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

describe('search (GET /api/search)', () => {
  it('is insensitive to case: "tehla" finds "Tehla …"', async () => {
    const lower = await search('tehla');
    expect(lower.meta.total).toBeGreaterThan(15);
    expect(lower.data).toHaveLength(15);
    expect(lower.data[0]!.p_name).toMatch(/tehla/i);
    expect(lower.data.some((p) => p.p_name.startsWith('Tehla '))).toBe(true);
    const upper = await search('TEHLA');
    expect(upper.meta.total).toBe(lower.meta.total);
    expect(upper.data.map((p) => p.p_id)).toEqual(lower.data.map((p) => p.p_id));
  });

  it('is insensitive to Slovak diacritics both ways: "izolacia" and "izolácia", "sadrokartonova" and "sadrokartónová"', async () => {
    const plain = await search('izolacia');
    const accented = await search('izolácia');
    expect(plain.meta.total).toBeGreaterThan(0);
    expect(plain.meta.total).toBe(accented.meta.total);
    const boards = await search('sadrokartonova doska');
    expect(boards.meta.total).toBeGreaterThan(5);
    for (const p of boards.data) expect(fold(p.p_name)).toContain('sadrokartonova');
    expect(boards.data.some((p) => p.p_name.includes('Sadrokartónová'))).toBe(true);
    const names = await search('minerálna vlna');
    const namesPlain = await search('mineralna vlna');
    expect(names.data.map((p) => p.p_id)).toEqual(namesPlain.data.map((p) => p.p_id));
  });

  it('matches prefixes and requires every word', async () => {
    const prefix = await search('porot');
    expect(prefix.meta.total).toBeGreaterThan(10);
    for (const p of prefix.data) expect(p.brand?.b_url === 'porotherm' || /porotherm/i.test(p.p_name)).toBe(true);
    const both = await search('tehla 44');
    expect(both.meta.total).toBeGreaterThan(0);
    expect(both.meta.total).toBeLessThan(prefix.meta.total);
    for (const p of both.data) expect(p.p_name).toMatch(/44/);
  });

  it('searches brands, categories and descriptions too, ranking name matches first', async () => {
    const brand = await search('knauf');
    const knauf = await api.db
      .selectFrom('products as p')
      .innerJoin('brands as b', 'b.b_id', 'p.b_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('b.b_url', '=', 'knauf')
      .executeTakeFirstOrThrow();
    expect(brand.meta.total).toBeGreaterThanOrEqual(Number(knauf.n));
    const byCategory = await search('strešné okná');
    expect(byCategory.meta.total).toBeGreaterThan(0);
    expect(byCategory.categories.map((c) => c.cat_url)).toContain('stresne-okna');
    const ranked = await search('ytong');
    expect(ranked.data[0]!.p_name).toMatch(/Ytong/);
  });

  it('pages results 15 at a time without repeating a product', async () => {
    const first = await search('tehla');
    const seen = new Set<number>();
    for (let page = 1; page <= first.meta.pageCount; page++) {
      for (const p of (await search('tehla', page)).data) {
        expect(seen.has(p.p_id)).toBe(false);
        seen.add(p.p_id);
      }
    }
    expect(seen.size).toBe(first.meta.total);
    const beyond = await search('tehla', first.meta.pageCount + 1);
    expect(beyond.data).toEqual([]);
  });

  it('answers no results with matching categories when only a category fits', async () => {
    const none = await search('xyzzy qwerty');
    expect(none.data).toEqual([]);
    expect(none.meta).toEqual({ page: 1, pageSize: 15, total: 0, pageCount: 1 });
    expect(none.categories).toEqual([]);
    const symbols = await search('*** "" -- ');
    expect(symbols.meta.total).toBe(0);
  });

  it('leaves out one-letter conjunctions and prepositions, and matches any other one-character word whole, not as a prefix', async () => {
    expect(queryTokens('II/A-S omietka s vláknom a lepidlo')).toEqual(['ii', 'omietk', 'vlaknom', 'lepidl']);
    expect((await search('a')).meta.total).toBe(0);
    const tehla = await search('tehla');
    const withConjunction = await search('tehla a v');
    expect(withConjunction.meta.total).toBe(tehla.meta.total);
    expect(withConjunction.data.map((p) => p.p_id)).toEqual(tehla.data.map((p) => p.p_id));
    // "8" finds "Porotherm 8 P+D", not "CT 85" or "Weber.tec 822".
    const eight = await search('8');
    expect(eight.meta.total).toBeGreaterThan(5);
    const ids: number[] = [];
    for (let page = 1; page <= eight.meta.pageCount; page++) ids.push(...(await search('8', page)).data.map((p) => p.p_id));
    const found = await api.db
      .selectFrom('products as p')
      .leftJoin('brands as b', 'b.b_id', 'p.b_id')
      .select(['p.p_name', 'p.p_description', 'b.b_name'])
      .where('p.p_id', 'in', ids)
      .execute();
    for (const p of found) expect(`${p.p_name} ${p.p_description} ${p.b_name ?? ''}`, p.p_name).toMatch(/(^|[^0-9a-z])8([^0-9a-z]|$)/i);
  });

  it('matches a long word by its first 12 characters, so its other forms too', async () => {
    expect(queryTokens('Hydroizolačný sadrokartónová')).toEqual(['hydroizolacn', 'sadrokartono']);
    const forms = await Promise.all(['hydroizolačný', 'hydroizolačná', 'hydroizolačné'].map((q) => search(q)));
    expect(forms[0]!.meta.total).toBeGreaterThan(0);
    for (const form of forms) expect(form.data.map((p) => p.p_id)).toEqual(forms[0]!.data.map((p) => p.p_id));
  });

  it('rejects a missing or too long query', async () => {
    for (const q of ['', `q=${'a'.repeat(201)}`, 'q=tehla&page=0']) {
      const res = await api.get(`/api/search?${q}`);
      expect(res.status, q).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
  });
});

/**
 * The reference, written the plain way: every listed hit joined to its product, numbered in
 * popularity order (popularity desc, id); the first `ranked` of them ordered by (score, popularity,
 * id), the rest after them in popularity order.
 */
async function rankedInSql(q: string, ranked = RANKED_HITS): Promise<number[]> {
  const tokens = queryTokens(q);
  const hits =
    api.dialect === 'sqlite'
      ? sql`select p.p_id, p.p_popularity, bm25(product_search, 10.0, 4.0, 2.0, 1.0) as score
          from product_search s join products p on p.p_search_key = s.rowid
          where product_search match ${ftsQuery(tokens)} and p.p_price is not null`
      : sql`select p.p_id, p.p_popularity, -ts_rank(s.document, to_tsquery('simple', ${tsQuery(tokens)})) as score
          from product_search s join products p on p.p_id = s.p_id
          where s.document @@ to_tsquery('simple', ${tsQuery(tokens)}) and p.p_price is not null`;
  const query = sql<{ p_id: number }>`with hits as materialized (${hits}),
      numbered as (select p_id, score, row_number() over (order by p_popularity desc, p_id) as position from hits)
    select p_id from numbered
    order by case when position <= ${ranked} then 0 else 1 end, case when position <= ${ranked} then score end, position`;
  return (await query.execute(api.db)).rows.map((r) => r.p_id);
}

async function allPages(q: string): Promise<{ ids: number[]; total: number }> {
  const first = await search(q);
  const ids = first.data.map((p) => p.p_id);
  for (let page = 2; page <= first.meta.pageCount; page++) ids.push(...(await search(q, page)).data.map((p) => p.p_id));
  return { ids, total: first.meta.total };
}

describe('search ranking (a bounded set of hits ranked inside the index, the rest by popularity)', () => {
  const queries = ['tehla', 'izolácia', 'sadrokartón', 'porot', 'farba biela', 'knauf', 'ytong', 'cement', 'skrutky', 'lepidlo 8', 'do'];

  it('answers every page, and the total, exactly like numbering every listed hit by popularity and ranking the first ones', async () => {
    for (const q of queries) {
      const expected = await rankedInSql(q);
      const { ids, total } = await allPages(q);
      expect(total, q).toBe(expected.length);
      expect(ids, q).toEqual(expected);
    }
  });

  it('ranks only the most popular hits, and pages across the border to the unranked ones in popularity order', async () => {
    const ranked = 20;
    const repository = new SearchRepository(api.db, api.dialect, ranked);
    let compared = 0;
    let reordered = 0;
    for (const q of ['do', 'tehla', 'izolácia']) {
      const tokens = queryTokens(q);
      const expected = await rankedInSql(q, ranked);
      if (expected.length <= ranked + 15) continue;
      compared += 1;
      // Pages of 15 straddle the border at 20; pages of 7 from odd offsets too.
      for (const size of [15, 7]) {
        const ids: number[] = [];
        for (let offset = 0; offset < expected.length; offset += size) {
          const page = await repository.results(tokens, size, offset);
          expect(page.total, q).toBe(expected.length);
          ids.push(...page.ids);
        }
        expect(ids, `${q} in pages of ${size}`).toEqual(expected);
      }
      // Past the border the order is popularity's; before it, the score's.
      const byPopularity = await rankedInSql(q, 0);
      expect(expected.slice(ranked)).toEqual(byPopularity.slice(ranked));
      if (expected.slice(0, ranked).join() !== byPopularity.slice(0, ranked).join()) reordered += 1;
    }
    expect(compared).toBeGreaterThan(0);
    expect(reordered).toBeGreaterThan(0);
  });

  it('counts and pages a bounded number of hits, and says that there are more', async () => {
    const q = 'do';
    const expected = await rankedInSql(q);
    const bound = 40;
    expect(expected.length).toBeGreaterThan(bound + 15);
    const repository = new SearchRepository(api.db, api.dialect, 20, bound);
    const ids: number[] = [];
    for (let offset = 0; offset < expected.length; offset += 15) {
      const page = await repository.results(queryTokens(q), 15, offset);
      expect(page).toMatchObject({ total: bound, capped: true });
      ids.push(...page.ids);
    }
    // The first `bound` hits in their order, then nothing: the last page stops at the bound.
    expect(ids).toEqual((await rankedInSql(q, 20)).slice(0, bound));
    // A page far past the bound (an attacker's …&page=1000000) answers at once, empty.
    expect(await repository.results(queryTokens(q), 15, 15_000_000)).toEqual({ ids: [], total: bound, capped: true });
    // Exactly at the bound there are no more.
    const exact = new SearchRepository(api.db, api.dialect, 20, expected.length);
    expect(await exact.results(queryTokens(q), 15, 0)).toMatchObject({ total: expected.length, capped: false });
    // The answer of a search under the bound says so too.
    const answer = await search('tehla');
    expect(answer.moreThanTotal).toBe(false);
    expect(answer.meta.total).toBe((await rankedInSql('tehla')).length);
  });

  it('moves a product whose popularity changes to its new place among the hits', async () => {
    const q = 'tehla';
    const before = await rankedInSql(q, 0);
    const last = before.at(-1)!;
    const { p_popularity } = await api.db.selectFrom('products').select('p_popularity').where('p_id', '=', last).executeTakeFirstOrThrow();
    await api.db.updateTable('products').set({ p_popularity: 1_000_000 }).where('p_id', '=', last).execute();
    catalogChanged();
    try {
      const repository = new SearchRepository(api.db, api.dialect, 0);
      expect((await repository.results(queryTokens(q), 3, 0)).ids[0]).toBe(last);
      expect((await allPages(q)).ids).toEqual(await rankedInSql(q));
    } finally {
      await api.db.updateTable('products').set({ p_popularity }).where('p_id', '=', last).execute();
      catalogChanged();
    }
    expect((await allPages(q)).ids).toEqual(await rankedInSql(q));
  });

  it('leaves out a product without a price (not listed) from the results and the total, and finds it again once listed', async () => {
    const q = 'tehla';
    const before = await allPages(q);
    const hidden = before.ids[3]!;
    const price = await api.db.selectFrom('products').select('p_price').where('p_id', '=', hidden).executeTakeFirstOrThrow();
    await api.db.updateTable('products').set({ p_price: null }).where('p_id', '=', hidden).execute();
    catalogChanged();
    try {
      const after = await allPages(q);
      expect(after.total).toBe(before.total - 1);
      expect(after.ids).toEqual(await rankedInSql(q));
      expect(after.ids).not.toContain(hidden);
      const suggest = await api.get<{ data: SearchSuggestions }>(`/api/search/suggest?q=${q}`);
      expect(suggest.body.data.products.map((p) => p.p_id)).toEqual(after.ids.slice(0, suggest.body.data.products.length));
    } finally {
      await api.db.updateTable('products').set({ p_price: price.p_price }).where('p_id', '=', hidden).execute();
      catalogChanged();
    }
    expect(await allPages(q)).toEqual(before);
  });
});

describe('the SQLite search index (listed products only)', () => {
  const indexed = async () =>
    (await sql<{ p_id: number }>`select rowid & 4294967295 as p_id from product_search order by 1`.execute(api.db)).rows.map((r) => r.p_id);
  const listed = async () =>
    (await api.db.selectFrom('products').select('p_id').where('p_price', 'is not', null).orderBy('p_id').execute()).map((r) => r.p_id);

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'holds exactly the listed products, following a product that loses and regains its price',
    async () => {
      expect(await indexed()).toEqual(await listed());
      const product = await api.db
        .selectFrom('products')
        .select(['p_id', 'p_price'])
        .where('p_price', 'is not', null)
        .orderBy('p_id')
        .executeTakeFirstOrThrow();
      await api.db.updateTable('products').set({ p_price: null }).where('p_id', '=', product.p_id).execute();
      try {
        expect(await indexed()).not.toContain(product.p_id);
        expect(await indexed()).toEqual(await listed());
        // A change of price that keeps it listed keeps it in the index, once.
        await api.db.updateTable('products').set({ p_price: product.p_price }).where('p_id', '=', product.p_id).execute();
        await api.db
          .updateTable('products')
          .set({ p_price: product.p_price! + 1 })
          .where('p_id', '=', product.p_id)
          .execute();
        expect((await indexed()).filter((id) => id === product.p_id)).toEqual([product.p_id]);
      } finally {
        await api.db.updateTable('products').set({ p_price: product.p_price }).where('p_id', '=', product.p_id).execute();
        catalogChanged();
      }
      expect(await indexed()).toEqual(await listed());
    },
  );
});

describe("the PostgreSQL search rows (their words' prefixes, migration search-prefix-lexemes)", () => {
  /** Product ids whose prefixes hold every token, against those whose document has a word starting with each. */
  const matched = async (tokens: string[]) => {
    const byPrefixes = await sql<{
      p_id: number;
    }>`select p_id from product_search where prefixes @@ to_tsquery('simple', ${prefixQuery(tokens)}) order by p_id`.execute(api.db);
    const byDocument = await sql<{
      p_id: number;
    }>`select p_id from product_search where document @@ to_tsquery('simple', ${tsQuery(tokens)}) order by p_id`.execute(api.db);
    return { byPrefixes: byPrefixes.rows.map((r) => r.p_id), byDocument: byDocument.rows.map((r) => r.p_id) };
  };

  it.skipIf(!process.env.DATABASE_URL)(
    'match exactly the rows a prefix query matches in the document, for every word of every product name, and after a rename',
    async () => {
      const names = await api.db.selectFrom('products').select('p_name').execute();
      const tokens = [...new Set(names.flatMap((row) => queryTokens(row.p_name)))];
      // Each word alone, each of its shorter prefixes, and pairs of neighbours.
      const queries = [
        ...tokens.map((token) => [token]),
        ...tokens.flatMap((token) => [token.slice(0, 2), token.slice(0, 5)].map((prefix) => [prefix])),
        ...tokens.slice(1).map((token, i) => [tokens[i]!, token]),
      ];
      expect(queries.length).toBeGreaterThan(100);
      for (const query of queries) {
        const { byPrefixes, byDocument } = await matched(query);
        expect(byPrefixes, query.join(' ')).toEqual(byDocument);
      }
      const product = await api.db.selectFrom('products').select(['p_id', 'p_name']).orderBy('p_id').executeTakeFirstOrThrow();
      try {
        await api.db.updateTable('products').set({ p_name: 'Kvádrovitá tvárnica Xylofonová' }).where('p_id', '=', product.p_id).execute();
        expect((await matched(['xylofonov'])).byPrefixes).toEqual([product.p_id]);
        expect((await matched(['xy'])).byPrefixes).toContain(product.p_id);
      } finally {
        await api.db.updateTable('products').set({ p_name: product.p_name }).where('p_id', '=', product.p_id).execute();
        catalogChanged();
      }
      expect((await matched(['xylofonov'])).byPrefixes).toEqual([]);
    },
  );
});

describe('suggestions (GET /api/search/suggest)', () => {
  it('suggests products with prices and categories while typing, without diacritics', async () => {
    const res = await api.get<{ data: SearchSuggestions }>('/api/search/suggest?q=sadrokart');
    expect(res.status).toBe(200);
    const { products, categories } = res.body.data;
    expect(products.length).toBeGreaterThan(0);
    expect(products.length).toBeLessThanOrEqual(6);
    for (const p of products) {
      expect(fold(p.p_name)).toContain('sadrokart');
      expect(p.price).toBeGreaterThan(0);
      expect(p.p_image).toBe(`/media/p/${p.p_id}.png`);
    }
    expect(categories.map((c) => c.cat_url)).toContain('sadrokarton');
  });
});
