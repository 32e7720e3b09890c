import { expect, test, type Locator, type Page } from '@playwright/test';
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

// Issue 23: /Logistics as a fresh brand: the GS1 company prefix on
// /configuration, a customer, a shipment that reserves its lot, ships with an
// SSCC, prints its label and is delivered; at desktop width and on a phone.
const PHONE = { width: 390, height: 844 };
const GLN = '9506000134352';

async function choose(select: Locator, text: string) {
  const option = select.locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
}

async function expectNoSidewaysScroll(page: Page) {
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
}

/** A product with 10 units of one lot in warehouse WH1, written through the API. */
async function stockViaApi(page: Page, product: string, lotNumber: string) {
  const headers = { 'x-csrf-token': await csrfToken(page) };
  const created = await createProductViaApi(page, {
    product_name: product,
    skuid: unique('SHP').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const productId = created.id;
  const location = await page.request.post('/api/locations', {
    data: { code: 'WH1', name: 'Main warehouse', kind: 'warehouse' },
    headers,
  });
  expect(location.status(), await location.text()).toBe(201);
  const lot = await page.request.post('/api/lots', {
    data: { product_id: productId, number: lotNumber, expires_on: '2031-06-30' },
    headers,
  });
  expect(lot.status(), await lot.text()).toBe(201);
  const move = await page.request.post('/api/stock-moves', {
    data: {
      product_id: productId,
      lot_id: ((await lot.json()) as { id: string }).id,
      quantity: '10',
      to_location_id: ((await location.json()) as { id: string }).id,
      reason: 'receipt',
      unit_cost: '1.00',
      currency: 'EUR',
    },
    headers,
  });
  expect(move.status(), await move.text()).toBe(201);
}

test('a shipment reserves its lot, ships with an SSCC and its label, and is delivered', async ({
  browser,
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await newBrand(browser, unique('Ship Co'));
  await signIn(page, admin.email, admin.password);
  const product = unique('Green tea');
  const lotNumber = unique('L').toUpperCase().slice(0, 20);
  await stockViaApi(page, product, lotNumber);

  // Shipping needs the GS1 company prefix: set on /configuration.
  await page.goto('/configuration');
  const gs1 = page.getByRole('form', { name: 'GS1 company prefix' });
  await gs1.getByLabel('GS1 company prefix').fill('12345');
  await gs1.getByRole('button', { name: 'Save prefix' }).click();
  await expect(gs1.getByRole('alert')).toContainText('6 to 12 digits');
  await gs1.getByLabel('GS1 company prefix').fill('4006381');
  await gs1.getByRole('button', { name: 'Save prefix' }).click();
  await expect(page.getByText('GS1 company prefix saved')).toBeVisible();

  await page.goto('/Logistics');
  await expect(page.getByRole('heading', { level: 1, name: 'Logistics' })).toBeVisible();
  await expect(page.getByText('Add a customer first: a shipment goes to one.')).toBeVisible();

  // A customer with a GLN.
  await page.locator('summary', { hasText: 'Add a customer' }).click();
  const customerForm = page.getByRole('form', { name: 'Add a customer' });
  await customerForm.getByLabel('Customer name').fill('Pharma Wholesale');
  await customerForm.getByLabel('GLN (optional)').fill(GLN);
  await customerForm.getByLabel('Country').fill('DE');
  await customerForm.getByRole('button', { name: 'Add customer' }).click();
  const customers = page.getByRole('table', { name: 'Customers' });
  await expect(customers.getByRole('row').filter({ hasText: 'Pharma Wholesale' })).toContainText(
    GLN,
  );

  // More than there is: refused with the server's words, nothing reserved.
  const form = page.getByRole('form', { name: 'New shipment' });
  await choose(form.getByLabel('Customer'), 'Pharma Wholesale');
  await choose(form.getByLabel('Ship from'), 'WH1');
  await choose(form.getByLabel('Product (line 1)'), product);
  await form.getByLabel('Quantity (line 1)').fill('50');
  await form.getByRole('button', { name: 'Create shipment' }).click();
  await expect(form.getByRole('alert')).toContainText('Not enough stock');
  await expect(form.getByRole('alert')).toContainText('Nothing was reserved.');

  // Four units: the lot is picked and reserved.
  await form.getByLabel('Quantity (line 1)').fill('4');
  await form.getByRole('button', { name: 'Create shipment' }).click();
  await expect(page.getByText(/created; its stock is reserved/)).toBeVisible();
  const shipments = page.getByRole('table', { name: 'Shipments' });
  const row = shipments.getByRole('row').filter({ hasText: 'Pharma Wholesale' });
  await expect(row).toContainText('draft');
  await expect(row).toContainText(`4 from lot ${lotNumber}`);
  await expect(row).toContainText('Given when it ships');

  // Ship: an SSCC of the prefix.
  await row.getByRole('button', { name: /^Ship SH-/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ship' }).click();
  await expect(row).toContainText('shipped');
  await expect(row).toContainText(/04006381\d{10}/);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, testInfo, 'logistics');

  // The labels: a PDF.
  const href = await row.getByRole('link', { name: /SSCC labels/ }).getAttribute('href');
  const label = await page.request.get(href!);
  expect(label.status()).toBe(200);
  expect(label.headers()['content-type']).toBe('application/pdf');
  expect((await label.body()).subarray(0, 5).toString()).toBe('%PDF-');

  await row.getByRole('button', { name: /Record delivery/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Record delivery' }).click();
  await expect(row).toContainText('delivered');

  // On a phone: the same page, nothing off screen, the actions at hand.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Logistics' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Shipments' }).getByRole('link', { name: /SSCC labels/ }),
  ).toBeVisible();
  await expect(page.getByRole('form', { name: 'New shipment' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'logistics-phone');
});
