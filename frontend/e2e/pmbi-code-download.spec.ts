import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  demo,
  generateCodesViaApi,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/** A lot number no other run uses (at most 20 characters of GS1's set). */
function uniqueLot(): string {
  return `PMBI-${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
}

/** A product of client B with two batches of codes (made as the signed-in admin). */
async function productWithBatches(page: Page) {
  const name = unique('Cetirizine 10');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('CTZ').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const lots = [uniqueLot(), uniqueLot()];
  await generateCodesViaApi(page, {
    product_id: product.id,
    quantity: 30,
    lot: { number: lots[0]!, expires_on: '2028-06-30' },
  });
  await generateCodesViaApi(page, {
    product_id: product.id,
    quantity: 20,
    lot: { number: lots[1]!, expires_on: '2029-06-30' },
  });
  return { product, name, lots };
}

function batchBox(page: Page, lot: string) {
  return page.getByRole('group', { name: 'Batches' }).getByRole('checkbox', { name: lot });
}

test('client B admin: downloads the codes of chosen batches, then of a date range, as one ZIP', async ({
  page,
}) => {
  await signIn(page, demo.clientBAdmin);
  const { product, name, lots } = await productWithBatches(page);
  try {
    await page.goto('/pmbi/codeDownload');
    await expect(page.getByRole('heading', { level: 1, name: 'Bulk code download' })).toBeVisible();
    // Each batch with its product, GTIN, expiry and codes.
    await expect(batchBox(page, lots[0]!)).toHaveAccessibleDescription(
      new RegExp(`^${name} · GTIN ${product.gtin} · expires .* · 30 codes$`),
    );
    await expect(page.getByRole('button', { name: 'Download ZIP' })).toBeDisabled();
    await batchBox(page, lots[0]!).check();
    await batchBox(page, lots[1]!).check();
    await expect(page.getByRole('status')).toContainText('50 codes in 2 files');
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download ZIP' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('codes-2-batches.zip');
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\u0003\u0004');
    // Both batches' files and the manifest are in it (their names are stored as text).
    const text = zip.toString('latin1');
    expect(text).toContain(`${product.gtin}_${lots[0]}_`);
    expect(text).toContain(`${product.gtin}_${lots[1]}_`);
    expect(text).toContain('manifest.json');

    // Today's jobs, as a range of days.
    const today = new Date().toISOString().slice(0, 10);
    await page.getByRole('radio', { name: 'Date range' }).check();
    await page.getByLabel('First day').fill(today);
    await page.getByLabel('Last day').fill(today);
    const link = page.getByRole('link', { name: 'Download ZIP' });
    await expect(link).toHaveAttribute('href', `/api/codes/bulk.zip?from=${today}&to=${today}`);
    const answer = await page.request.get((await link.getAttribute('href'))!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/zip');

    // A range without codes says so, and the server agrees.
    await page.getByLabel('First day').fill('2001-01-01');
    await page.getByLabel('Last day').fill('2001-01-31');
    await expect(page.getByRole('status')).toContainText('nothing to download');
    await expect(page.getByRole('button', { name: 'Download ZIP' })).toBeDisabled();
    const empty = await page.request.get('/api/codes/bulk.zip?from=2001-01-01&to=2001-01-31');
    expect(empty.status()).toBe(404);
    expect(((await empty.json()) as { error: string }).error).toBe(
      'No codes have been generated from 2001-01-01 to 2001-01-31: there is nothing to download.',
    );
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('client B employee at phone width: chooses a batch and downloads it', async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, demo.clientBAdmin);
  const { product, lots } = await productWithBatches(admin);
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, demo.clientBEmployee);
    await page.goto('/pmbi/codeDownload');
    await batchBox(page, lots[1]!).check();
    await expect(page.getByRole('status')).toContainText('20 codes in 1 file');
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download ZIP' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('codes-1-batch.zip');
    await context.close();
  } finally {
    await archiveViaApi(admin, product.id).catch(() => undefined);
  }
});

test('client A and brands do not reach the bulk download, on the page or the API', async ({
  browser,
}) => {
  for (const email of [demo.clientAAdmin, demo.acmeAdmin]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/pmbi/codeDownload');
    await expect(page).toHaveURL(/\/unauthorized$/);
    const answer = await page.request.get('/api/codes/bulk.zip?from=2026-01-01&to=2026-01-31');
    expect(answer.status()).toBe(403);
    await context.close();
  }
});
