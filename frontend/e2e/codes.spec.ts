import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  csrfToken,
  demo,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/** A lot number no other run uses (at most 20 characters of GS1's set). */
function uniqueLot(): string {
  return `E2E-${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

async function newProduct(page: Page) {
  return createProductViaApi(page, {
    product_name: unique('Coded tea'),
    skuid: unique('TEA').toUpperCase(),
    gtin: uniqueGtin(),
  });
}

function codesSection(page: Page) {
  return page.getByRole('region', { name: 'Codes', exact: true });
}

function jobRow(page: Page, text: string) {
  return codesSection(page).getByRole('row').filter({ hasText: text });
}

/**
 * Records, in the page, every state the progress bars show: each change of
 * a bar's `aria-valuetext` (and a bar leaving), so the test can check how it
 * moved without depending on when it looked.
 */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    const record = () => {
      const bar = document.querySelector('table[aria-label="Code jobs"] [role="progressbar"]');
      const state = bar
        ? `${bar.getAttribute('aria-valuenow')}/${bar.getAttribute('aria-valuemax')}`
        : 'none';
      if (seen[seen.length - 1] !== state) seen.push(state);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
    record();
  });
}

async function progressSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}

/** Starts a job through the API as the signed-in admin and waits until it is done. */
async function generatedViaApi(
  page: Page,
  body: { product_id: string; quantity: number; lot?: { number: string; expires_on?: string } },
) {
  const created = await page.request.post('/api/code-jobs', {
    data: body,
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/code-jobs/${id}`)).json()) as { status: string })
          .status,
      { timeout: 60_000 },
    )
    .toBe('done');
  return id;
}

test('an admin generates codes for a lot, follows the progress to done and downloads the CSV', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, demo.acmeAdmin);
  const product = await newProduct(page);
  const lot = uniqueLot();
  try {
    await page.goto(`/products/${product.id}`);
    const codes = codesSection(page);
    await expect(codes).toContainText(/[\d,]+ of 5,000,000 codes left in your plan\./);
    await expect(codes.getByRole('table', { name: 'Code jobs' })).toContainText(
      'No codes have been generated for this product yet.',
    );
    const form = page.getByRole('form', { name: 'Generate codes' });

    // The form checks what the server checks before sending.
    await form.getByLabel('Quantity').fill('0');
    await form.getByLabel('Lot number').fill('LOT 1#');
    await form.getByRole('button', { name: 'Generate codes' }).click();
    await expect(form.getByText('Generate at least 1 code.')).toBeVisible();
    await expect(form.getByText(/A lot number cannot hold spaces, “#”/)).toBeVisible();

    // The quota's refusal, as the server words it.
    await form.getByLabel('Quantity').fill('9000000');
    await form.getByLabel('Lot number').fill(lot);
    await form.getByRole('button', { name: 'Generate codes' }).click();
    await expect(form.getByRole('alert')).toContainText(
      /This job needs 9000000 codes, but only [\d]+ remain in your plan's code quota\./,
    );

    // 120,000 codes of a new lot.
    await form.getByLabel('Quantity').fill('120000');
    await form.getByLabel('Quantity').blur();
    await expect(form.getByLabel('Quantity')).toHaveValue('120,000');
    await form.getByLabel('Manufactured on').fill('2026-01-15');
    await form.getByLabel('Expires on').fill('2028-01-15');
    await recordProgress(page);
    await form.getByRole('button', { name: 'Generate codes' }).click();
    await expect(
      page.getByText('Code job started: 120,000 codes are being generated.'),
    ).toBeVisible();
    await expect(form.getByLabel('Quantity')).toHaveValue('');
    const row = jobRow(page, lot);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Jan 15, 2028');

    // It reaches done: the bar gives way to the count, and the downloads appear.
    await expect(row.getByText('Done')).toBeVisible({ timeout: 120_000 });
    await expect(row).toContainText('120,000 codes');
    await expect(row.getByRole('progressbar')).toHaveCount(0);
    const seen = await progressSeen(page);
    testInfo.annotations.push({ type: 'progress seen', description: seen.join(' → ') });
    // It appeared at once at 0 of 120,000, only ever went forward, and left when done.
    expect(seen[0]).toBe('none');
    expect(seen[1]).toBe('0/120000');
    expect(seen[seen.length - 1]).toBe('none');
    const values = seen.slice(1, -1).map((state) => Number(state.split('/')[0]));
    expect(values, seen.join(' → ')).toEqual([...values].sort((a, b) => a - b));
    expect(
      values.every((v) => v >= 0 && v <= 120_000),
      seen.join(' → '),
    ).toBe(true);

    // The lot, from its job.
    const lots = page.getByRole('table', { name: 'Lots' });
    await expect(lots.getByRole('row').filter({ hasText: lot })).toContainText('Jan 15, 2026');
    await expect(lots.getByRole('row').filter({ hasText: lot })).toContainText('Jan 15, 2028');

    // The same lot with other dates: the server's conflict, at the lot number.
    await form.getByLabel('Quantity').fill('10');
    await form.getByLabel('Lot number').fill(lot);
    await form.getByLabel('Expires on').fill('2029-01-01');
    await form.getByRole('button', { name: 'Generate codes' }).click();
    await expect(form.getByLabel('Lot number')).toHaveAccessibleDescription(
      new RegExp(`Lot ${lot} of this product already exists with other dates\\.`),
    );

    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    // The CSV: its header, one line per code, each with the GTIN, lot and expiry.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: /^CSV:/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^codes-[0-9a-f-]{36}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe('gtin,serial,lot,expiry,uri');
    expect(lines[lines.length - 1]).toBe('');
    expect(lines.length - 2).toBe(120_000);
    const line = new RegExp(
      `^${product.gtin},([0-9A-Za-z]{11}),${lot},2028-01-15,https?://[^,]+/01/${product.gtin}/10/${lot}/21/\\1$`,
    );
    expect(lines[1]).toMatch(line);
    expect(lines[120_000]).toMatch(line);
    expect(new Set(lines.slice(1, -1).map((l) => l.split(',')[1])).size).toBe(120_000);
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('a worker sees the jobs and their lots, but no form and no downloads', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, demo.acmeAdmin);
  const product = await newProduct(admin);
  const lot = uniqueLot();
  try {
    const jobId = await generatedViaApi(admin, {
      product_id: product.id,
      quantity: 25,
      lot: { number: lot, expires_on: '2027-06-30' },
    });

    await signIn(page, demo.acmeWorker);
    await page.goto(`/products/${product.id}`);
    const row = jobRow(page, lot);
    await expect(row).toContainText('Done');
    await expect(row).toContainText('25 codes');
    await expect(row).toContainText('Jun 30, 2027');
    await expect(page.getByRole('table', { name: 'Lots' })).toContainText(lot);
    await expect(codesSection(page).getByRole('link')).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Generate codes' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Generate codes' })).toHaveCount(0);
    // The server refuses what is hidden.
    expect((await page.request.get(`/api/code-jobs/${jobId}/codes.csv`)).status()).toBe(403);
  } finally {
    await archiveViaApi(admin, product.id).catch(() => undefined);
    await admin.context().close();
  }
});

test('at phone width (390 px) the codes section works: form, progress, downloads', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.acmeAdmin);
  const product = await newProduct(page);
  const lot = uniqueLot();
  try {
    await page.goto(`/products/${product.id}`);
    const form = page.getByRole('form', { name: 'Generate codes' });
    await form.getByLabel('Quantity').fill('2000');
    await form.getByLabel('Lot number').fill(lot);
    await form.getByLabel('Expires on').fill('2027-12-31');
    const submit = form.getByRole('button', { name: 'Generate codes' });
    await submit.scrollIntoViewIfNeeded();
    await expect(submit).toBeInViewport();
    await submit.click();
    await expect(
      page.getByText('Code job started: 2,000 codes are being generated.'),
    ).toBeVisible();

    const row = jobRow(page, lot);
    await expect(row.getByText('Done')).toBeVisible({ timeout: 60_000 });
    await expect(row).toContainText('2,000 codes');
    for (const name of [/^CSV:/, /^ZIP:/]) {
      const link = row.getByRole('link', { name });
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeInViewport();
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    // Nothing scrolls sideways: the tables are cards.
    const sideways = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      tables: Array.from(document.querySelectorAll('.table-wrap')).map(
        (wrap) => wrap.scrollWidth - wrap.clientWidth,
      ),
    }));
    expect(sideways).toEqual({ page: 0, tables: sideways.tables.map(() => 0) });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: /^ZIP:/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^codes-[0-9a-f-]{36}\.zip$/);
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\u0003\u0004');
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});
