import { expect, test } from './fixtures.ts';

// Bratislava is UTC+1 in November: 16:00 local = 15:00Z.
const cases = [
  { label: 'Friday 16:00', time: '2026-11-20T15:00:00Z', text: 'V pondelok otvorené od 08:00' },
  { label: 'Tuesday 16:00', time: '2026-11-17T15:00:00Z', text: 'Zajtra otvorené od 08:00' },
  { label: 'Tuesday 10:00', time: '2026-11-17T09:00:00Z', text: 'Dnes otvorené do 15:30' },
];

for (const { label, time, text } of cases) {
  test(`the header shows the opening-hours text for ${label}`, async ({ page }) => {
    await page.clock.install({ time: new Date(time) });
    await page.goto('/');
    await expect(page.getByTestId('opening-hours')).toHaveText(text);
  });
}

test('the opening-hours text changes at 15:30 without a reload', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-11-17T14:29:00Z') }); // Tuesday 15:29
  await page.goto('/');
  await expect(page.getByTestId('opening-hours')).toHaveText('Dnes otvorené do 15:30');
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.clock.runFor('02:00');
  await expect(page.getByTestId('opening-hours')).toHaveText('Zajtra otvorené od 08:00');
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test(`on a Sunday morning the header and the contact page tell the same hours (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') }); // Sunday 10:00 in Bratislava
    await page.goto('/s/kontakt');
    await expect(page.getByTestId('opening-hours')).toHaveText('Dnes otvorené do 15:30');
    const hours = page.getByRole('region', { name: 'Otváracie hodiny' }).or(page.locator('section.cnt-hours'));
    await expect(hours).toContainText('Denne 08:00 – 15:30. Dnes otvorené do 15:30.');
    await expect(page.getByRole('main')).not.toContainText('zatvorené');
  });
}
