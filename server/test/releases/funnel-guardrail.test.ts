/**
 * The canary watch's funnel guardrails (domains/releases/funnel-judges.ts) on the registry in force
 * (the shop's database; SQLite, and PostgreSQL with DATABASE_URL), from telemetry sessions as
 * POST /api/telemetry records them (recordSession):
 * - checkout canaries per step (basket → contact, contact → order step): too few sessions at a step,
 *   no verdict (a staged canary is not moved on); equal shares, healthy (the stage moves on); a
 *   canary losing shoppers at a step, aborted by the real watch, the history naming the step and both
 *   figures, counted as a commerce abort;
 * - catalog canaries: additions to the basket per product-page session, one session once however
 *   often it reports;
 * - a session that has not gone on counts only once it has been quiet for the settle time.
 */
import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { finishCanary, type DeployMode } from '@shop/release';
import type { TelemetryEvent } from '@shop/shared-kernel/contract';
import { randomString } from '@shop/shared-kernel/rules';
import { recordSession } from '../../src/domains/ops/telemetry/client-sessions.repository.ts';
import { canaryJudged } from '../../src/domains/releases/canary-jobs.ts';
import { commercePolicyFrom, DEFAULT_COMMERCE_POLICY, type CommercePolicy } from '../../src/domains/releases/commerce-judge.ts';
import {
  BASKET_ADDS,
  BASKET_TO_CONTACT,
  CONTACT_TO_ORDER,
  funnelJudge,
  funnelJudges,
  funnelVerdict,
} from '../../src/domains/releases/funnel-judges.ts';
import type { TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { canaryScrape as scrapeCanaries, checkOnce as checkWatchOnce } from '../helpers/commerce-watch.ts';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop({ registryInDatabase: true });
const { storage, release, inForce } = shop;
let api: TestApi;
let book: TrustedRegistry;

beforeAll(async () => {
  ({ api, book } = await shop.start());
});
afterAll(async () => {
  await shop.stop();
});

const SETTLE_MS = 60_000;
const POLICY: CommercePolicy = {
  ...DEFAULT_COMMERCE_POLICY,
  minProductViews: 6,
  basketAddDrop: 0.3,
  minStepVisits: 6,
  stepDrop: 0.3,
  funnelSettleMs: SETTLE_MS,
};
const STAGE_MS = 60_000;
const ramp: DeployMode = { kind: 'canary', share: 50, stages: [50, 75], stageMs: STAGE_MS, autoPromote: false };
/** The judges' clock: the sessions written now have settled by then. */
const later = () => Date.now() + 2 * SETTLE_MS;

const view = (area: 'catalog' | 'checkout', version: string, route: string): TelemetryEvent => ({ type: 'view', area, version, route });

/** `count` sessions of the checkout `version` that went through `routes` (in one batch each), recorded at `at`. */
async function sessions(version: string, count: number, routes: string[], at = new Date()) {
  for (let i = 0; i < count; i += 1)
    await recordSession(
      api.db,
      randomString(22),
      routes.map((route) => view('checkout', version, route)),
      at,
    );
}

/** One check of the real watch with the checkout's funnel judges, the error rates healthy: the areas it aborted. */
const checkOnce = (stable: string, canary: string) =>
  checkWatchOnce({ storage, book, stageMs: STAGE_MS }, { stable, canary }, funnelJudges(api.db, POLICY, later));
const canaryScrape = () => scrapeCanaries(book);

const canaryNow = async () => (await book.read()).canaries?.checkout;
const abortCanary = () => finishCanary({ storage, book, area: 'checkout', outcome: 'abort', provenance: { who: 'test' } });
const CART = ['checkout-cart'];
const CART_CONTACT = ['checkout-cart', 'checkout-contact'];
const THROUGH = ['checkout-cart', 'checkout-contact', 'checkout-order'];

describe('the checkout progress guardrail on a checkout canary', () => {
  it('gives no verdict on too few sessions at a step: a staged canary is not moved on', async () => {
    const stable = await inForce();
    const canary = (await release('funnel-few', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      await sessions(canary, POLICY.minStepVisits - 1, THROUGH);
      await sessions(stable, POLICY.minStepVisits, THROUGH);
      expect(await funnelJudge(api.db, BASKET_TO_CONTACT, POLICY, later).judge({ area: 'checkout', canary, stable, since })).toEqual({
        verdict: 'unknown',
        figures:
          'pokračovanie z košíka na kontaktné údaje: málo údajov (kanárik 5/5 (100 %), stabilná 6/6 (100 %); treba aspoň 6 návštev košíka na každej strane)',
      });
      expect(await checkOnce(stable, canary)).toEqual([]);
      expect(await canaryNow()).toMatchObject({ version: canary, share: 50, stages: { index: 0 } });
    } finally {
      await abortCanary();
    }
  });

  it('holds a canary whose shoppers go on as often as the stable one’s: healthy, the stage moves on', async () => {
    const stable = await inForce();
    const canary = (await release('funnel-equal', { mode: ramp })).version;
    try {
      for (const version of [canary, stable]) {
        await sessions(version, 4, THROUGH);
        await sessions(version, 2, CART_CONTACT);
        await sessions(version, 2, CART);
      }
      expect(await checkOnce(stable, canary)).toEqual([]);
      expect(await canaryNow()).toMatchObject({ version: canary, share: 75, stages: { index: 1 } });
      const advance = (await book.history()).at(-1)!;
      expect(advance).toMatchObject({ action: 'advance', to: canary });
      expect(advance.reason).toContain(
        'pokračovanie z košíka na kontaktné údaje: kanárik 6/8 (75 %), stabilná 6/8 (75 %); povolený pokles 30 %',
      );
      expect(advance.reason).toContain(
        'pokračovanie z kontaktných údajov na krok objednávky: kanárik 4/6 (67 %), stabilná 4/6 (67 %); povolený pokles 30 %',
      );
    } finally {
      await abortCanary();
    }
  });

  it('aborts a canary that loses shoppers between the contact and the order step, the history naming the step and both figures', async () => {
    const stable = await inForce();
    const canary = (await release('funnel-contact', { mode: ramp })).version;
    await sessions(canary, 3, THROUGH);
    await sessions(canary, 5, CART_CONTACT);
    await sessions(stable, 8, THROUGH);
    expect(await checkOnce(stable, canary)).toEqual(['checkout']);
    expect(await canaryNow()).toBeUndefined();
    expect(await inForce()).toBe(stable);
    const last = (await book.history()).at(-1)!;
    expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
    expect(last.reason).toBe(
      'automatické zrušenie (pokračovanie z kontaktných údajov na krok objednávky (pokladňa)): pokračovanie z kontaktných údajov na krok objednávky: kanárik 3/8 (38 %), stabilná 8/8 (100 %); menej o 63 %, povolený pokles 30 %',
    );
    expect(await canaryScrape()).toMatch(/^shop_canary_aborts_total\{area="checkout",reason="commerce"\} [1-9]\d*$/m);
  });

  it('counts a session still on its step only once it has been quiet for the settle time', async () => {
    const stable = await inForce();
    const canary = (await release('funnel-settle', { mode: ramp })).version;
    const since = new Date((await canaryNow())!.since);
    try {
      // The canary's shoppers at the contact step reported a moment ago; their next report may be on its way.
      await sessions(canary, 6, THROUGH);
      await sessions(canary, 6, CART_CONTACT);
      await sessions(stable, 6, THROUGH);
      const judge = (now: () => number) =>
        funnelJudge(api.db, CONTACT_TO_ORDER, POLICY, now).judge({ area: 'checkout', canary, stable, since });
      expect(await judge(Date.now)).toMatchObject({ verdict: 'healthy', figures: expect.stringContaining('kanárik 6/6 (100 %)') });
      // Quiet for the settle time: they left there.
      expect(await judge(later)).toMatchObject({ verdict: 'regressed', figures: expect.stringContaining('kanárik 6/12 (50 %)') });
    } finally {
      await abortCanary();
    }
  });
});

describe('the add-to-basket guardrail on a catalog canary', () => {
  const since = new Date(Date.now() - 60_000);
  const catalogSession = (version: string, events: TelemetryEvent[]) => recordSession(api.db, randomString(22), events, new Date());
  const product = (version: string) => view('catalog', version, 'product');
  const added = (version: string): TelemetryEvent => ({ type: 'basket-add', area: 'catalog', version, route: 'product' });
  const judge = (canary: string, stable: string) =>
    funnelJudge(api.db, BASKET_ADDS, POLICY, later).judge({ area: 'catalog', canary, stable, since });

  it('counts a product-page session that added once, however often it reports; only additions on that version’s pages', async () => {
    const session = randomString(22);
    // One page reporting its addition 1,000 times (20 batches of 50).
    await recordSession(api.db, session, [product('c-flood')], new Date());
    for (let batch = 0; batch < 20; batch += 1)
      await recordSession(
        api.db,
        session,
        Array.from({ length: 50 }, () => added('c-flood')),
        new Date(),
      );
    // Sessions that showed a product page and added nothing, or added on a page of another version.
    for (let i = 0; i < 5; i += 1) await catalogSession('c-flood', [product('c-flood'), added('c-other')]);
    for (let i = 0; i < 6; i += 1) await catalogSession('c-stable', [product('c-stable'), added('c-stable')]);
    expect(await judge('c-flood', 'c-stable')).toEqual({
      verdict: 'regressed',
      figures: 'pridania do košíka na zobrazenie produktu: kanárik 1/6 (17 %), stabilná 6/6 (100 %); menej o 83 %, povolený pokles 30 %',
    });
  });

  it('gives no verdict below the minimum product-page sessions on either side, healthy at equal shares', async () => {
    for (let i = 0; i < 5; i += 1) await catalogSession('c-few', [product('c-few'), added('c-few')]);
    // Additions without a product page (a listing's button) are no product-page session.
    for (let i = 0; i < 3; i += 1) await catalogSession('c-few', [view('catalog', 'c-few', 'category'), added('c-few')]);
    for (let i = 0; i < 6; i += 1) await catalogSession('c-base', [product('c-base'), ...(i % 2 ? [added('c-base')] : [])]);
    expect(await judge('c-few', 'c-base')).toMatchObject({
      verdict: 'unknown',
      figures: expect.stringContaining('málo údajov (kanárik 5/5 (100 %), stabilná 3/6 (50 %); treba aspoň 6 relácií so stránkou produktu'),
    });
    for (let i = 0; i < 6; i += 1) await catalogSession('c-same', [product('c-same'), ...(i % 2 ? [added('c-same')] : [])]);
    expect(await judge('c-same', 'c-base')).toMatchObject({
      verdict: 'healthy',
      figures: expect.stringContaining('kanárik 3/6 (50 %), stabilná 3/6 (50 %)'),
    });
  });
});

describe('the funnel verdict (pure)', () => {
  const side = (reached: number, wentOn: number) => ({ reached, wentOn });
  const verdict = (stable: [number, number], canary: [number, number]) =>
    funnelVerdict(BASKET_TO_CONTACT, side(...stable), side(...canary), { ...POLICY, minStepVisits: 10, stepDrop: 0.3 }).verdict;

  it('needs the minimum on both sides, and aborts only beyond the allowed relative drop', () => {
    expect(verdict([10, 5], [9, 0])).toBe('unknown');
    expect(verdict([9, 5], [10, 0])).toBe('unknown');
    // 50 % against 35 %: exactly 30 % fewer is allowed; below it is not.
    expect(verdict([100, 50], [100, 35])).toBe('healthy');
    expect(verdict([100, 50], [100, 34])).toBe('regressed');
    // A stable side where nobody went on cannot be undercut; a canary doing better is healthy.
    expect(verdict([10, 0], [10, 0])).toBe('healthy');
    expect(verdict([10, 5], [10, 10])).toBe('healthy');
    // Sampling may count more who went on than who reached it: the comparison still holds.
    expect(verdict([10, 12], [10, 12])).toBe('healthy');
  });

  it('reads its settings strictly: defaults when unset, a bad value refuses the start with its name', () => {
    expect(commercePolicyFrom({})).toMatchObject({
      minProductViews: 200,
      basketAddDrop: 0.3,
      minStepVisits: 50,
      stepDrop: 0.3,
      funnelSettleMs: 300_000,
    });
    expect(commercePolicyFrom({ CANARY_MIN_STEP_VISITS: '2', CANARY_FUNNEL_SETTLE_MS: '0' })).toMatchObject({
      minStepVisits: 2,
      funnelSettleMs: 0,
    });
    for (const [name, value] of [
      ['CANARY_MIN_PRODUCT_VIEWS', '0'],
      ['CANARY_MIN_STEP_VISITS', '2.5'],
      ['CANARY_BASKET_ADD_DROP', '1.5'],
      ['CANARY_STEP_DROP', '30%'],
      ['CANARY_FUNNEL_SETTLE_MS', '-1'],
    ] as const)
      expect(() => commercePolicyFrom({ [name]: value })).toThrow(`Invalid ${name}`);
  });

  it('is named on /ops for canaries of its area only', () => {
    const judged = canaryJudged(api.db);
    expect(judged('catalog')).toEqual([
      'chybovosť (chyby v prehliadači)',
      'rýchlosť (INP, LCP)',
      'pridania do košíka na zobrazenie produktu (katalóg)',
    ]);
    expect(judged('checkout')).toEqual([
      'chybovosť (chyby v prehliadači)',
      'rýchlosť (INP, LCP)',
      'pokračovanie z košíka na kontaktné údaje (pokladňa)',
      'pokračovanie z kontaktných údajov na krok objednávky (pokladňa)',
      'objednávky na návštevu kroku objednávky (pokladňa)',
      'neúspešné platby kartou (pokladňa)',
    ]);
    expect(judged('content')).toEqual(['chybovosť (chyby v prehliadači)', 'rýchlosť (INP, LCP)']);
  });
});
