import { expect, test, type Page } from '@playwright/test';
import { demo, seriousViolations, signIn } from './helpers';

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

test('client A: a batch report with an unknown serial shows its per-row problem; the history lists it', async ({
  page,
}) => {
  await signIn(page, demo.clientAEmployee);
  await page.goto('/clientA/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Batch reports' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'File columns' })).toContainText('licence_number');
  await expect(page.getByRole('link', { name: 'XLSX template' })).toHaveAttribute(
    'href',
    '/api/batch-updates/template.xlsx',
  );

  const serial = unknownSerial();
  const name = `report-${serial}.csv`;
  await chooseCsv(
    page,
    name,
    `${HEADER}\n${serial},4006381333931,B-E2E-1,2026-01-01,2028-01-01,MH/25/1234\n`,
  );
  await page.getByRole('button', { name: 'Check file' }).click();

  const problems = page.getByRole('table', { name: 'Problems' });
  await expect(problems).toContainText('No code of your organisation has this serial');
  await expect(problems).toContainText('code');
  await expect(page.getByText(/1 problem in 1 row\. Nothing was changed/)).toBeVisible();
  const result = page.getByRole('link', { name: 'Download the result (CSV)' });
  const answer = await page.request.get((await result.getAttribute('href'))!);
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain('No code of your organisation has this serial');

  const history = page.getByRole('table', { name: 'Batch update history' });
  const row = history.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Check');
  await expect(row).toContainText('Has problems');
  await expect(row).toContainText('Eli Employee');
  expect(await seriousViolations(page)).toEqual([]);

  // Refused before it is sent: not CSV or XLSX.
  await page.getByLabel('Batch file (CSV or XLSX)').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await expect(page.getByText('notes.txt is not a .csv or .xlsx file')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check file' })).toBeDisabled();

  // Refused by the server: a header without rows, in its own words.
  await chooseCsv(page, 'empty.csv', `${HEADER}\n`);
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The update was refused.' }),
  ).toBeVisible();
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
