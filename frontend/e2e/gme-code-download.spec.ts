import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  csrfToken,
  demo,
  generateCodesViaApi,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

const LABS = 'L24230MH1995PLC093214 — Client A Laboratories Limited';

/** A lot number no other run uses (at most 20 characters of GS1's set). */
function uniqueLot(): string {
  return `GME-${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

/** The demo company's id, as the signed-in client A user reads it. */
async function labsId(page: Page): Promise<string> {
  const answer = await page.request.get('/api/companies');
  expect(answer.status()).toBe(200);
  const { companies } = (await answer.json()) as { companies: { id: string; cin: string }[] };
  return companies.find((c) => c.cin === 'L24230MH1995PLC093214')!.id;
}

test('client A admin: adds a product of a company, then picks company, product, a new batch and a quantity, follows the job and downloads the codes', async ({
  page,
}) => {
  await signIn(page, demo.clientAAdmin);

  // The product form offers the organisation's companies.
  await page.goto('/products/Add_product');
  const name = unique('Paracetamol 500');
  const gtin = uniqueGtin();
  const form = page.getByRole('form', { name: 'Add product' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('SKU id').fill(unique('PCM').toUpperCase());
  await form.getByLabel('GTIN').fill(gtin);
  await form.getByRole('combobox', { name: 'Company' }).selectOption({ label: LABS });
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const productId = page.url().split('/').pop()!;

  try {
    await page.goto('/gme/codeDownload');
    await expect(page.getByRole('heading', { level: 1, name: 'Code selector' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Company (CIN)' }).selectOption({ label: LABS });
    await page
      .getByRole('combobox', { name: 'Product', exact: true })
      .selectOption({ value: productId });
    const selector = page.getByRole('form', { name: 'Generate codes' });
    // A product without batches starts with a new one.
    await expect(selector.getByRole('radio', { name: 'A new batch' })).toBeChecked();
    await expect(selector.getByRole('radio', { name: 'An existing batch' })).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);

    const lot = uniqueLot();
    await selector.getByLabel('Lot number').fill(lot);
    await selector.getByLabel('Manufactured on').fill('2026-01-15');
    await selector.getByLabel('Expires on').fill('2028-01-14');
    await selector.getByLabel('Quantity').fill('1,500');
    await selector.getByRole('button', { name: 'Generate codes' }).click();

    const yours = page.getByRole('region', { name: 'Your codes' });
    await expect(yours.getByText(/1,500 codes of batch .* generated: download them/)).toBeVisible({
      timeout: 60_000,
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      yours.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^codes-[0-9a-f-]{36}\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('gtin,serial,lot,expiry,uri');
    expect(lines).toHaveLength(1501);
    expect(lines[1]).toContain(`,${lot},2028-01-14,`);

    // The batch now exists: the next job may add to it.
    await expect(
      page.getByRole('table', { name: 'Code jobs' }).getByRole('row').filter({ hasText: lot }),
    ).toHaveCount(1);
    await page.getByRole('combobox', { name: 'Product', exact: true }).selectOption({ index: 0 });
    await page
      .getByRole('combobox', { name: 'Product', exact: true })
      .selectOption({ value: productId });
    await expect(
      page.getByRole('combobox', { name: 'Batch (lot number)' }).getByRole('option', {
        name: new RegExp(`^${lot} `),
      }),
    ).toHaveCount(1);
  } finally {
    await archiveViaApi(page, productId).catch(() => undefined);
  }
});

test('client A employee at phone width: downloads the codes already generated, starts none', async ({
  browser,
}) => {
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, demo.clientAAdmin);
  const created = await admin.request.post('/api/products', {
    data: {
      product_name: unique('Amoxicillin 250'),
      skuid: unique('AMX').toUpperCase(),
      gtin: uniqueGtin(),
      company_id: await labsId(admin),
    },
    headers: { 'x-csrf-token': await csrfToken(admin) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as { id: string };
  const lot = uniqueLot();
  await generateCodesViaApi(admin, {
    product_id: product.id,
    quantity: 25,
    lot: { number: lot, expires_on: '2029-06-30' },
  });

  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, demo.clientAEmployee);
    await page.goto('/gme/codeDownload');
    await page.getByRole('combobox', { name: 'Company (CIN)' }).selectOption({ label: LABS });
    await page
      .getByRole('combobox', { name: 'Product', exact: true })
      .selectOption({ value: product.id });
    const row = page.getByRole('table', { name: 'Code jobs' }).getByRole('row').filter({
      hasText: lot,
    });
    await expect(row).toHaveCount(1);
    await expect(page.getByRole('form', { name: 'Generate codes' })).toHaveCount(0);
    await expect(page.getByText(/admins generate codes/)).toBeVisible();
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: /^ZIP:/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^codes-[0-9a-f-]{36}\.zip$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 2)
        .toString('binary'),
    ).toBe('PK');
    // The server refuses the employee's job either way.
    const refused = await page.request.post('/api/code-jobs', {
      data: { product_id: product.id, quantity: 1 },
      headers: { 'x-csrf-token': await csrfToken(page) },
    });
    expect(refused.status()).toBe(403);
    await context.close();
  } finally {
    await archiveViaApi(admin, product.id).catch(() => undefined);
  }
});

test('client B and brands do not reach the code selector', async ({ browser }) => {
  for (const email of [demo.clientBAdmin, demo.acmeAdmin]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/gme/codeDownload');
    await expect(page).toHaveURL(/\/unauthorized$/);
    await context.close();
  }
});
