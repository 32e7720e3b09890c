import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  createProductViaApi,
  csrfToken,
  newBrand,
  screenshot,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

// Issue 23: /Manufacturing as a fresh brand's admin, at desktop width and on
// a phone held upright: a BOM version, an order, its start and completion,
// and the lots it consumed.
const PHONE = { width: 390, height: 844 };

/** Chooses the option of `select` whose text contains `text` (waiting until it is there). */
async function choose(select: Locator, text: string) {
  const option = select.locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
}

/** Nothing on the page, and no table in it, scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const sideways = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tables: Array.from(document.querySelectorAll('.table-wrap')).map(
      (wrap) => wrap.scrollWidth - wrap.clientWidth,
    ),
  }));
  expect(sideways).toEqual({ page: 0, tables: sideways.tables.map(() => 0) });
}

/**
 * A fresh brand with a product to make (soap), a component (oil) in two
 * lots received at a warehouse, set up through the API as its admin.
 */
async function plant(browser: Browser, page: Page) {
  const admin = await newBrand(browser, unique('Soap Works'));
  await signIn(page, admin.email, admin.password);
  const headers = { 'x-csrf-token': await csrfToken(page) };
  const soap = unique('Soap');
  const oil = unique('Olive oil');
  await createProductViaApi(page, {
    product_name: soap,
    skuid: unique('SOAP').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const oilProduct = await createProductViaApi(page, {
    product_name: oil,
    skuid: unique('OIL').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const location = await page.request.post('/api/locations', {
    data: { code: 'WH1', name: 'Main warehouse', kind: 'warehouse' },
    headers,
  });
  expect(location.status(), await location.text()).toBe(201);
  const locationId = ((await location.json()) as { id: string }).id;
  for (const [number, expires, quantity] of [
    ['OIL-LATE', '2099-06-30', '10'],
    ['OIL-EARLY', '2098-06-30', '2'],
  ] as const) {
    const lot = await page.request.post('/api/lots', {
      data: { product_id: oilProduct.id, number, expires_on: expires },
      headers,
    });
    expect(lot.status(), await lot.text()).toBe(201);
    const lotId = ((await lot.json()) as { id: string }).id;
    const move = await page.request.post('/api/stock-moves', {
      data: {
        product_id: oilProduct.id,
        lot_id: lotId,
        quantity,
        to_location_id: locationId,
        reason: 'receipt',
        unit_cost: '1.50',
        currency: 'EUR',
      },
      headers,
    });
    expect(move.status(), await move.text()).toBe(201);
  }
  return { soap, oil };
}

/** Saves a BOM version: `output` of soap from `quantity` of oil. */
async function saveBom(page: Page, soap: string, oil: string, output: string, quantity: string) {
  const boms = page.getByRole('region', { name: 'Bills of materials' });
  await choose(boms.getByLabel('Product', { exact: true }).first(), soap);
  await expect(boms.getByText(`${soap} has no bill of materials yet.`)).toBeVisible();
  const form = boms.getByRole('form', { name: 'New BOM version' });
  await form.getByRole('button', { name: 'Save version' }).click();
  await expect(form.getByText('Enter a quantity.').first()).toBeVisible();
  await form.getByLabel('One run makes').fill(output);
  const component = form.getByRole('group', { name: 'Component 1' });
  await choose(component.getByLabel('Product'), oil);
  await component.getByLabel('Quantity').fill(quantity);
  await form.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText(`Version 1 of ${soap}’s BOM saved.`)).toBeVisible();
  await expect(
    boms.getByRole('table', { name: `BOM versions of ${soap}` }).getByRole('row', { name: /v1/ }),
  ).toContainText(`${quantity} × ${oil}`);
}

/** Creates an order of `quantity` soap into lot `lot`; answers its number. */
async function createOrder(page: Page, soap: string, quantity: string, lot: string) {
  const form = page.getByRole('form', { name: 'New manufacturing order' });
  await choose(form.getByLabel('Product to make'), soap);
  await form.getByLabel('Quantity').fill(quantity);
  await choose(form.getByLabel('Location'), 'WH1');
  await form.getByLabel('Output lot number').fill(lot);
  await form.getByRole('button', { name: 'Create order' }).click();
  const toast = page.getByText(/^MO-\d{6} created on BOM version 1\.$/);
  await expect(toast).toBeVisible();
  return ((await toast.textContent()) ?? '').slice(0, 9);
}

test('an admin writes a BOM, orders soap, starts and completes the order, and sees the oil lots it consumed, earliest expiry first', async ({
  browser,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { soap, oil } = await plant(browser, page);
  await page.goto('/Manufacturing');
  await expect(page.getByRole('heading', { level: 1, name: 'Manufacturing' })).toBeVisible();
  await expect(page.getByText('No manufacturing orders yet.')).toBeVisible();

  // 10 soap from 4 oil.
  await saveBom(page, soap, oil, '10', '4');
  const number = await createOrder(page, soap, '10', 'SOAP-1');

  const panel = page.getByRole('region', { name: `${number}: ${soap}` });
  await expect(panel.getByRole('table', { name: `Components of ${number}` })).toContainText('4');
  await panel.getByRole('button', { name: 'Start order' }).click();
  await expect(page.getByText(`${number} started.`)).toBeVisible();

  // More than the stock holds: the server's message, and nothing consumed.
  const complete = panel.getByRole('form', { name: `Complete ${number}` });
  await complete.getByLabel('Produced quantity').fill('100');
  await complete.getByRole('button', { name: 'Complete order' }).click();
  await expect(complete.getByText(/Not enough stock at WH1/)).toContainText(
    '40 needed, 12 available',
  );

  // 7.5 soap: 3 oil, 2 from the early lot, 1 from the late one.
  await complete.getByLabel('Produced quantity').fill('7.5');
  await complete.getByRole('button', { name: 'Complete order' }).click();
  await expect(page.getByText(`${number} completed: lot SOAP-1 produced.`)).toBeVisible();
  const consumed = panel.getByRole('table', { name: `Lots consumed by ${number}` });
  await expect(consumed.getByRole('row').filter({ hasText: 'OIL-EARLY' })).toContainText('2');
  await expect(consumed.getByRole('row').filter({ hasText: 'OIL-LATE' })).toContainText('1');
  // 3 × 1.50 EUR over 7.5 soap.
  await expect(panel.getByText('0.60 EUR')).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Manufacturing orders' })
      .getByRole('row')
      .filter({ hasText: number }),
  ).toContainText('Completed');
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, testInfo, 'manufacturing');
});

test.describe('at 390 px', () => {
  test.use({ viewport: PHONE });

  test('the manufacturing page fits a phone: forms, orders and consumed lots, nothing sideways', async ({
    browser,
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { soap, oil } = await plant(browser, page);
    await page.goto('/Manufacturing');
    await saveBom(page, soap, oil, '1', '1');
    const number = await createOrder(page, soap, '2', 'SOAP-P');
    const panel = page.getByRole('region', { name: `${number}: ${soap}` });
    await panel.getByRole('button', { name: 'Start order' }).click();
    const complete = panel.getByRole('form', { name: `Complete ${number}` });
    await complete.getByLabel('Produced quantity').fill('2');
    await complete.getByRole('button', { name: 'Complete order' }).click();
    await expect(
      panel.getByRole('table', { name: `Lots consumed by ${number}` }).getByRole('row', {
        name: /OIL-EARLY/,
      }),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'manufacturing-phone');
  });
});
