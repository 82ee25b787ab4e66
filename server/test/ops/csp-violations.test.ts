/**
 * The pages' Content-Security-Policy violations, as browsers report them (POST /api/csp-report),
 * counted per day, page type, part, directive and blocked origin in the database and shown to the
 * operator (GET /api/ops/csp-violations); bounded in every value and in rows a day. SQLite, or
 * PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../src/domains/releases/identities.repository.ts';
import { cspViolationsReader } from '../../src/domains/ops/console/csp-violations.ts';
import { partOf } from '../../src/domains/ops/telemetry/csp-report.ts';
import { countViolations, dayOf } from '../../src/domains/ops/telemetry/csp-violations.repository.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

/** The signed-in operator's Cookie header (the console's session). */
let operatorCookie = '';
const SHOP = 'https://shop.example';
const ASSETS = 'https://cdn.shop.example';
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    telemetryRateLimit: { max: 10_000, timeWindowMs: 60_000 },
    // The operator's console calls as the shop's server builds them, on the operator origin.
    operatorConsole: ({ db }) => ({ publicUrl: SHOP, cspViolations: cspViolationsReader(db) }),
  });
  operatorCookie = (await api.operator()).cookie;
});
afterAll(async () => {
  await api?.close();
});

type Group = { page: string; part: string; directive: string; blockedOrigin: string; count: number; firstSeen: string; lastSeen: string };

const report = (body: unknown, type = 'application/csp-report') =>
  fetch(`${api.baseUrl}/api/csp-report`, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body) });
const legacy = (fields: Record<string, string>) => report({ 'csp-report': fields });
const shown = async (team?: string) =>
  fetch(`${api.opsUrl}/api/ops/csp-violations`, { headers: team ? { authorization: `Bearer ${team}` } : { cookie: operatorCookie } });
const groups = async () => ((await (await shown()).json()) as { data: { since: string; groups: Group[] } }).data.groups;
const find = (all: Group[], key: Partial<Group>) => all.filter((g) => Object.entries(key).every(([k, v]) => g[k as keyof Group] === v));
const metric = async () => {
  const { text } = await api.metrics();
  return Object.fromEntries([...text.matchAll(/^shop_csp_violations_total\{([^}]*)\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
};

describe('the part of a violation', () => {
  const on = (blocked: string, source = '') => partOf({ blocked, source, document: `${SHOP}/p/tehla` });
  it.each([
    [`${ASSETS}/remotes/catalog/1.4.0/assets/product-page-abc.js`, '', 'catalog', ASSETS],
    [`${ASSETS}/remotes/checkout/2.0.0/remoteEntry.js?v=1`, '', 'checkout', ASSETS],
    [`${SHOP}/assets/index-abc.js`, '', 'shell', SHOP],
    ['https://evil.example/steal.js?card=4111111111111111', '', 'external', 'https://evil.example'],
    ['inline', `${SHOP}/p/tehla`, 'inline', 'inline'],
    ['inline', '', 'inline', 'inline'],
    ['eval', `${ASSETS}/remotes/content/1.0.0/assets/x.js`, 'content', 'eval'],
    ['data', '', 'inline', 'data'],
    ['data:text/javascript,alert(1)', '', 'inline', 'data'],
    ['', '', 'inline', 'inline'],
    ['something odd', '', 'inline', 'other'],
  ])('%s (from %s) is %s, origin %s', (blocked, source, part, origin) => {
    expect(on(blocked, source)).toEqual({ part, blockedOrigin: origin });
  });
});

describe('Content-Security-Policy violations on /ops', () => {
  it('are counted per page type, part, directive and origin from both report forms, in the table and the metric', async () => {
    const before = await metric();
    expect(
      (
        await legacy({
          'document-uri': `${SHOP}/checkout/cart`,
          'effective-directive': 'script-src-elem',
          'blocked-uri': 'https://evil.example/x.js?session=secret',
        })
      ).status,
    ).toBe(204);
    const modern = await report(
      [
        {
          type: 'csp-violation',
          url: `${SHOP}/blog/clanok/a`,
          body: {
            documentURL: `${SHOP}/blog/clanok/a`,
            effectiveDirective: 'script-src-attr',
            blockedURL: 'inline',
            sourceFile: `${SHOP}/blog/clanok/a`,
          },
        },
        {
          type: 'csp-violation',
          url: `${SHOP}/blog/clanok/b`,
          body: { documentURL: `${SHOP}/blog/clanok/b`, effectiveDirective: 'script-src-attr', blockedURL: 'inline' },
        },
        { type: 'deprecation', body: {} },
      ],
      'application/reports+json',
    );
    expect(modern.status).toBe(204);
    const all = await groups();
    const evil = find(all, { page: 'cart', part: 'external', directive: 'script-src-elem' });
    expect(evil).toHaveLength(1);
    expect(evil[0]).toMatchObject({ blockedOrigin: 'https://evil.example', count: 1 });
    expect(JSON.stringify(all)).not.toContain('secret');
    expect(find(all, { page: 'content', part: 'inline', directive: 'script-src-attr', blockedOrigin: 'inline' })[0]?.count).toBe(2);
    const after = await metric();
    const key = (labels: string) => (after[labels] ?? 0) - (before[labels] ?? 0);
    expect(key('directive="script-src-elem",page="cart",part="external",source="external"')).toBe(1);
    expect(key('directive="script-src-attr",page="content",part="inline",source="inline"')).toBe(2);
  });

  it('lose no count when reports arrive at once', async () => {
    const document = `${SHOP}/account/profile`;
    await Promise.all(
      Array.from({ length: 25 }, () =>
        legacy({ 'document-uri': document, 'effective-directive': 'img-src', 'blocked-uri': 'https://tracker.example/pixel.gif' }),
      ),
    );
    const [group] = find(await groups(), { page: 'account', directive: 'img-src', blockedOrigin: 'https://tracker.example' });
    expect(group?.count).toBe(25);
    expect(group!.firstSeen <= group!.lastSeen).toBe(true);
  });

  it('bound every value: unknown directives, long addresses and odd pages fall into closed sets', async () => {
    const longHost = `https://${'a'.repeat(60)}.${'b'.repeat(60)}.example`;
    await legacy({
      'document-uri': `javascript:${'x'.repeat(5000)}`,
      'effective-directive': `made-up-${'d'.repeat(500)}`,
      'blocked-uri': `${longHost}/${'p'.repeat(2000)}`,
    });
    const [group] = find(await groups(), { directive: 'other', page: 'other' });
    expect(group?.part).toBe('external');
    expect(group!.blockedOrigin.length).toBeLessThanOrEqual(120);
    expect(longHost.startsWith(group!.blockedOrigin)).toBe(true);
  });

  it('keep a bounded number of rows a day and count the rest in the day’s other row', async () => {
    const at = new Date(Date.now() - 2 * 86_400_000);
    const key = (n: number) => ({ page: 'product', part: 'external', directive: 'connect-src', blockedOrigin: `https://host${n}.example` });
    const rowsOf = () => api.db.selectFrom('csp_violations').selectAll().where('day', '=', dayOf(at)).execute();
    await countViolations(api.db, [key(1), key(2), key(1)], at, 3);
    await countViolations(api.db, [key(3)], at, 3);
    // The day is full: new keys go to the other row, a key it has is still counted on its own.
    await countViolations(api.db, [key(4), key(5), key(1)], at, 3);
    await countViolations(api.db, [key(6)], at, 3);
    const rows = await rowsOf();
    expect(rows).toHaveLength(4);
    const count = (origin: string) => rows.find((r) => r.blocked_origin === origin)?.violations;
    expect(count('https://host1.example')).toBe(3);
    expect(count('https://host2.example')).toBe(1);
    expect(count('https://host3.example')).toBe(1);
    expect(rows.find((r) => r.page === 'other')).toMatchObject({
      part: 'other',
      directive: 'other',
      blocked_origin: 'other',
      violations: 3,
    });
  });

  it('show the last 7 days only', async () => {
    const old = { page: 'home', part: 'shell', directive: 'style-src-elem', blockedOrigin: 'https://old.example' };
    await countViolations(api.db, [old], new Date(Date.now() - 7 * 86_400_000));
    expect(find(await groups(), { blockedOrigin: 'https://old.example' })).toEqual([]);
    await countViolations(api.db, [old], new Date(Date.now() - 6 * 86_400_000));
    expect(find(await groups(), { blockedOrigin: 'https://old.example' })[0]?.count).toBe(1);
  });

  it('are for the operator only', async () => {
    const anonymous = await fetch(`${api.opsUrl}/api/ops/csp-violations`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const team = await createCredential(api.db, { name: 'catalog-team-csp', area: 'catalog' });
    const refused = await shown(team);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/stránku operátora/);
    const allowed = await shown();
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('no-store');
  });
});
