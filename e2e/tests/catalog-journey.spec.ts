import { expect, test } from './fixtures.ts';
import { cents } from './helpers.ts';

test('a shopper filters a category by an attribute and a price range, sorts, pages, picks a variant and adds 3 pieces', async ({
  page,
}) => {
  await page.goto('/c/hruba-stavba');
  await expect(page.getByRole('heading', { level: 1, name: 'Hrubá stavba' })).toBeVisible();
  const count = page.locator('.cat-toolbar__count');
  await expect(count).toHaveText(/\d+ produktov/);

  // Filters live in a disclosure on a phone.
  const filters = page.getByTestId('filters');
  await filters.locator('summary').click();
  const material = filters.getByRole('checkbox', { name: /^pálená hlina \(\d+\)$/ });
  await material.click();
  await expect(material).toBeChecked();
  await expect(page).toHaveURL(/f14=p%C3%A1len%C3%A1\+hlina/);
  await filters.getByRole('textbox', { name: 'Cena s DPH od (€)' }).fill('1');
  await filters.getByRole('textbox', { name: 'Cena s DPH do (€)' }).fill('20');
  await filters.getByRole('button', { name: 'Použiť filter Cena s DPH' }).click();
  await expect(page).toHaveURL(/price=1-20/);
  await expect(count).toHaveText('28 produktov');
  await expect(filters.locator('summary')).toHaveText('Filtre (2)');

  await page.getByRole('combobox', { name: 'Zoradiť' }).selectOption('price-asc');
  await expect(page).toHaveURL(/sort=price-asc/);
  const prices = async () => {
    await expect(page.locator('.cat-results__grid--stale')).toHaveCount(0);
    const texts = await page
      .getByRole('list', { name: /Produkty v kategórii/ })
      .getByTestId('price')
      .allTextContents();
    return texts.map(cents);
  };
  // The sorted page replaces the previous one once its answer is in: wait for it, not for a moment.
  const sorted = (list: number[]) => list.every((price, index) => index === 0 || list[index - 1]! <= price);
  await expect.poll(async () => sorted(await prices())).toBe(true);
  const firstPage = await prices();
  expect(firstPage).toHaveLength(15);
  expect(firstPage).toEqual([...firstPage].sort((a, b) => a - b));
  for (const price of firstPage) expect(price).toBeGreaterThanOrEqual(100);

  // rel prev/next in the document head follow the page.
  const head = (rel: string) => page.locator(`head link[rel="${rel}"]`);
  await expect(head('next')).toHaveAttribute('href', /page=2/);
  await expect(head('prev')).toHaveCount(0);
  await page.getByRole('link', { name: 'Strana 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('product-card')).toHaveCount(13);
  await expect(head('prev')).toHaveCount(1);
  await expect(head('next')).toHaveCount(0);
  const secondPage = await prices();
  expect(secondPage[0]).toBeGreaterThanOrEqual(firstPage[14]!);

  // Back: page 1 with the same filters and sort.
  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect(page).toHaveURL(/sort=price-asc/);
  await expect(page.getByTestId('product-card')).toHaveCount(15);

  await page.getByTestId('product-card').filter({ hasText: 'Tehla Porotherm 8 P+D' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tehla Porotherm 8 P+D' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Vyberte variant (2 varianty)' })).toBeVisible();
  await page.getByRole('radio', { name: /^paleta \(120 ks\)/ }).check();
  await expect(page.getByTestId('sale-badge')).toHaveText('Zľava −30 %');
  const unitPrice = cents((await page.getByTestId('price').first().textContent())!);
  await expect(page.getByTestId('unit-price')).toHaveText(/ \/ ks$/);
  const lowest = page.getByTestId('lowest-price');
  await expect(lowest).toHaveText(/^Najnižšia cena za 30 dní pred zľavou: /);
  expect(cents((await lowest.textContent())!.split(':')[1]!)).toBeGreaterThan(unitPrice);
  await expect(page.getByTestId('availability')).toHaveText('Skladom');

  await page.getByLabel(/Množstvo/).fill('3');
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await expect(page.getByText(/Pridané do košíka: 3 paleta/)).toBeVisible();
  await expect(page.getByTestId('basket-count')).toHaveText('3');

  await page.getByRole('link', { name: /Košík:/ }).click();
  await expect(page).toHaveURL(/\/checkout\/cart$/);
  const line = page.getByTestId('basket-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Tehla Porotherm 8 P+D');
  expect(cents((await line.getByTestId('line-total').textContent())!)).toBe(unitPrice * 3);
});

test('a page past the last resets to page 1 and drops the page query', async ({ page }) => {
  await page.goto('/c/tehly?sort=name&page=99');
  await expect(page).toHaveURL(/\/c\/tehly\?sort=name$/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/c\/tehly$/);
});

test('a product with required accessories puts them into the basket as their own lines', async ({ page }) => {
  await page.goto('/p/kominovy-system-schiedel-rondo-plus-14-cm');
  await expect(page.getByTestId('accessories')).toContainText('Pripojovacia súprava Schiedel');
  await page.getByLabel(/Množstvo/).fill('2');
  await page.getByRole('button', { name: 'Pridať do košíka' }).click();
  await expect(page.getByText(/aj s príslušenstvom/)).toBeVisible();
  await expect(page.getByTestId('basket-count')).toHaveText('6');
});

test('product pictures keep their proportions and show whole, in listings and on the product page', async ({ page }) => {
  // The pictures are square, their frames 4:3: stretched (fill) or cut (cover), a picture lost its proportions or its edges.
  const pictures = () =>
    page.locator('main img').evaluateAll((images) =>
      (images as HTMLImageElement[])
        .filter((image) => image.complete && image.naturalWidth > 0 && image.clientWidth > 0)
        .map((image) => ({
          src: image.currentSrc,
          natural: image.naturalWidth / image.naturalHeight,
          frame: image.clientWidth / image.clientHeight,
          fit: getComputedStyle(image).objectFit,
        })),
    );
  for (const path of ['/vypredaj', '/c/hruba-stavba', '/p/tehla-porotherm-30-t-profi']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(async () => (await pictures()).length, path).toBeGreaterThan(0);
    for (const picture of await pictures()) {
      if (Math.abs(picture.natural - picture.frame) > 0.02) expect(picture.fit, `${path}: ${picture.src}`).toBe('contain');
    }
  }
});
