import { expect, test, type Page } from '@playwright/test';
import { archiveViaApi, demo, productWithCodes, seriousViolations, signIn } from './helpers';

const HEADER = 'code,gtin,batch_number,manufacturing_date,expiry_date,licence_number';

/**
 * An 11-character serial no code of the demo tenants has (a fresh one each
 * run). It starts with `0`: eleven base-62 characters can spell more than 64
 * bits, which is no serial at all.
 */
function unknownSerial(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const rest = Array.from({ length: 10 }, () => alphabet[Math.floor(Math.random() * 62)]);
  return `0${rest.join('')}`;
}

async function chooseCsv(page: Page, name: string, text: string) {
  await page.getByLabel('Batch file (CSV or XLSX)').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

test('client A: a batch file with an unknown serial shows its per-row problem; Apply stays off; the reports list it', async ({
  page,
}) => {
  await signIn(page, demo.clientAEmployee);
  await page.goto('/gme/batchUpdate');
  await expect(page.getByRole('heading', { level: 1, name: 'Batch update' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'File columns' })).toContainText('licence_number');
  await expect(page.getByRole('link', { name: 'XLSX template' })).toHaveAttribute(
    'href',
    '/api/batch-updates/template.xlsx',
  );
  // The CSV template: the header and one example row.
  const template = await page.request.get('/api/batch-updates/template.csv');
  expect((await template.text()).trim().split('\n')).toHaveLength(2);

  const serial = unknownSerial();
  const name = `report-${serial}.csv`;
  await chooseCsv(
    page,
    name,
    `${HEADER}\n${serial},4006381333931,B-E2E-1,2026-01-01,2028-01-01,MH/25/1234\n`,
  );
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await page.getByRole('button', { name: 'Check file' }).click();

  const problems = page.getByRole('table', { name: 'Problems' });
  await expect(problems).toContainText('No code of your organisation has this serial');
  await expect(problems).toContainText('code');
  await expect(page.getByText(/1 problem in 1 of 1 row\. Nothing was changed/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await expect(page.getByText(/Apply stays off: this file has problems/)).toBeVisible();
  const result = page.getByRole('link', { name: 'Download the result (CSV)' });
  const answer = await page.request.get((await result.getAttribute('href'))!);
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain('No code of your organisation has this serial');

  // The reports: the history of uploads, each with its outcome and its
  // result, and under it the file uploader the spec puts on this page.
  await page.goto('/clientA/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Batch reports' })).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Upload a batch file' })
      .getByLabel('Batch file (CSV or XLSX)'),
  ).toHaveCount(1);
  const history = page.getByRole('table', { name: 'Batch update history' });
  const row = history.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Check');
  await expect(row).toContainText('Has problems');
  await expect(row).toContainText('Eli Employee');
  await expect(row.getByRole('link', { name: /^Result of/ })).toHaveAttribute(
    'href',
    /\/result\.csv$/,
  );
  await row.getByRole('button', { name: /^Details of/ }).click();
  await expect(page.getByRole('table', { name: 'Problems' })).toContainText(
    'No code of your organisation has this serial',
  );
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('client A: a batch other than the code’s own lot is a row error; a clean file is applied after a confirmation naming the codes', async ({
  page,
}) => {
  await signIn(page, demo.clientAAdmin);
  const lot = `PCM${Date.now() % 1_000_000}`;
  const product = await productWithCodes(page, 3, { number: lot });
  const gtin = `0${product.gtin}`.slice(-14);
  await page.goto('/gme/batchUpdate');
  const rows = (batch: string) =>
    product.codes
      .map((c) => `${c.serial},${gtin},${batch},2026-01-10,2028-01-31,MH/25/1234`)
      .join('\n');
  await chooseCsv(page, `other-${lot}.csv`, `${HEADER}\n${rows('OTHER1')}\n`);
  await page.getByRole('button', { name: 'Check file' }).click();
  const problems = page.getByRole('table', { name: 'Problems' });
  await expect(problems).toContainText(`batch_number OTHER1 differs from lot ${lot}`);
  await expect(page.getByText(/3 problems in 3 of 3 rows/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();

  await chooseCsv(page, `own-${lot}.csv`, `${HEADER}\n${rows(lot)}\n`);
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByText(/No problems in 3 rows/)).toBeVisible();
  await page.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Apply the batch data' });
  await expect(dialog).toContainText('Applying gives 3 codes this batch data.');
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Apply to 3 codes' }).click();
  await expect(page.getByText(/Applied: 3 codes given their batch data/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Batches assigned' })).toContainText(lot);
  await archiveViaApi(page, product.id);
});

test('client A admin at phone width: the uploader and the history as cards', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.clientAAdmin);
  await page.goto('/gme/batchUpdate');
  await expect(page.getByRole('heading', { level: 1, name: 'Batch update' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check file' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Batch update history' })).toBeVisible();
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('client B and brands do not reach client A’s batch pages', async ({ browser }) => {
  for (const email of [demo.clientBAdmin, demo.acmeAdmin]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/clientA/reports');
    await expect(page).toHaveURL(/\/unauthorized$/);
    await context.close();
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, demo.acmeAdmin);
  expect((await page.request.get('/api/batch-updates')).status()).toBe(403);
  await context.close();
});
