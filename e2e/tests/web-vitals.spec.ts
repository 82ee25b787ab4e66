/**
 * Field Web Vitals from a real browser to the operator console: a shopper lands on a server-rendered category page,
 * taps a product (the shop's own navigation), then leaves for another page; the shell's vitals go
 * in the telemetry batches, and the operator sees p75 LCP, INP and CLS of the catalog's version.
 * Each hop is checked on its own, so a failure says where the vitals stopped: what the page handed
 * the browser, what the server counted, what the console shows.
 */
import { expect, test } from './fixtures.ts';
import { createOperator, opsGet, operatorSession, signInFirstTime, type SignedIn } from './operator.ts';

const METRICS = ['lcp', 'inp', 'cls'] as const;

/** Each telemetry batch the page hands the browser, kept in the tab's session storage: it outlives the page that sent it. */
function KEEP_BEACONS() {
  const send = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, body) => {
    const queued = send(url, body);
    if (String(url).endsWith('/api/telemetry')) {
      const kept = JSON.parse(sessionStorage.getItem('e2e-beacons') ?? '[]') as unknown[];
      sessionStorage.setItem('e2e-beacons', JSON.stringify([...kept, { queued, body: String(body) }]));
    }
    return queued;
  };
}

type Kept = { queued: boolean; body: string };
/** What /api/ops/vitals answers, as far as this test reads it. */
type VitalsReport = { rows: { area: string; state: string; metrics: { metric: string; samples: number }[] }[] };

/**
 * The samples the server counted for the catalog's stable version, per metric: over 24 hours, so that
 * no hour of this run leaves the window between two reads (the console's 1 h range starts at an hour).
 */
async function catalogSamples(operator: SignedIn): Promise<Record<string, number>> {
  const answer = await opsGet('/api/ops/vitals?hours=24', operator);
  expect(answer.status).toBe(200);
  const report = ((await answer.json()) as { data: VitalsReport }).data;
  const row = report.rows.find((r) => r.area === 'catalog' && r.state === 'stable');
  return Object.fromEntries(METRICS.map((metric) => [metric, row?.metrics.find((m) => m.metric === metric)?.samples ?? 0]));
}

test("a shopper's vitals reach the console as p75 LCP, INP and CLS of the catalog's version", async ({ page }) => {
  const operator = await operatorSession();
  const before = await catalogSamples(operator);
  await page.addInitScript(KEEP_BEACONS);
  const library = page.waitForResponse((response) => /\/assets\/vitals-library-[^/]+\.js$/.test(response.url()));
  await page.goto('/c/hruba-stavba');
  // The library comes after the page's load (a few seconds later, or at the first tap).
  await library;
  await page.locator('a[href^="/p/"]').first().click();
  await expect(page).toHaveURL(/\/p\//);
  await expect(page.locator('html[data-interactive]')).toBeAttached();
  await page.getByRole('heading', { level: 1 }).first().click();
  // Leaving the page sends what the library measured (the page is hidden): beacons as it unloads.
  await page.goto('/blog');

  // 1. The page handed the browser the catalog's LCP, INP and CLS, and the browser queued them.
  const kept = (await page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e-beacons') ?? '[]'))) as Kept[];
  const handed = kept.flatMap(({ queued, body }) =>
    (JSON.parse(body) as { events: { type: string; area: string; metric?: string }[] }).events
      .filter((event) => event.type === 'vital' && event.area === 'catalog')
      .map((event) => `${event.metric}${queued ? '' : ' (not queued)'}`),
  );
  expect(handed).toEqual(expect.arrayContaining([...METRICS]));
  // 2. The server counted them: a beacon goes on its own time after the page is gone, so this waits for it.
  await expect
    .poll(
      async () => {
        const after = await catalogSamples(operator);
        return METRICS.filter((metric) => after[metric]! <= before[metric]!);
      },
      { message: `the server counted no new sample of these (before: ${JSON.stringify(before)})`, timeout: 10_000 },
    )
    .toEqual([]);

  // 3. The console shows them.
  await signInFirstTime(page, createOperator());
  await page.getByLabel('1 h').check();
  const catalog = page.locator('[data-testid="ops-vitals"] > li[data-area="catalog"][data-state="stable"]');
  await expect(catalog).toBeVisible();
  for (const metric of METRICS) {
    await expect(catalog.locator(`li[data-metric="${metric}"]`)).toContainText(/(dobré|treba zlepšiť|slabé)/);
  }
  await expect(catalog).toContainText('LCP:');
  await expect(catalog.locator('li[data-metric="lcp"]')).toContainText(' s');
  await expect(catalog.locator('li[data-metric="inp"]')).toContainText(' ms');
  // On a phone the section wraps: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = (await page.getByTestId('ops-vitals').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
