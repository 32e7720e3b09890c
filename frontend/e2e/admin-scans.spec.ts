import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  csrfToken,
  demo,
  generateCodesViaApi,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/** A product of acme with one code, scanned once by a consumer; returns the product's name. */
async function scannedProduct(page: Page) {
  const name = unique('Admin-scanned tea');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('ADM').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const jobId = await generateCodesViaApi(page, { product_id: product.id, quantity: 1 });
  const csv = await (await page.request.get(`/api/code-jobs/${jobId}/codes.csv`)).text();
  const uri = csv.trim().split('\n')[1]!.split(',')[4]!;
  const scanned = await page.request.get(new URL(uri).pathname, {
    headers: { accept: 'application/json' },
  });
  expect(scanned.status(), await scanned.text()).toBeLessThan(400);
  return { id: product.id, name };
}

test('the admin dashboard lists the latest scans, filtered by brand', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const acme = await (await browser.newContext()).newPage();
  await signIn(acme, demo.acmeAdmin);
  const product = await scannedProduct(acme);
  try {
    await signIn(page, demo.platform);
    await page.goto('/admin/dashboard');
    const section = page.getByRole('region', { name: 'Scans', exact: true });
    const table = section.getByRole('table', { name: 'Scans' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'BrandId',
      'BrandName',
      'Time',
      'Product',
      'Verdict',
      'Loc',
      'Country',
      'Region',
      'City',
    ]);

    await section.getByLabel('Brand').selectOption({ label: 'Acme Consumer Goods (acme)' });
    const row = table.getByRole('row').filter({ hasText: product.name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('acme');
    await expect(row).toContainText('Genuine');

    // A brand of this test, with no scans: the spec's words.
    const clientId = unique('scn').replace(/-/g, '_').slice(0, 30);
    const created = await page.request.post('/api/platform/tenants', {
      data: {
        clientId,
        name: `Scanless ${clientId}`,
        kind: 'brand',
        userLimit: 2,
        admin: {
          name: 'Scanless Admin',
          email: `admin@${clientId.replace(/_/g, '-')}.test`,
          password: 'scanless-admin-1',
        },
      },
      headers: { 'x-csrf-token': await csrfToken(page) },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.reload();
    await section.getByLabel('Brand').selectOption({ label: `Scanless ${clientId} (${clientId})` });
    await expect(section.getByText('No scans data available.', { exact: true })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: product.name })).toHaveCount(0);
  } finally {
    await archiveViaApi(acme, product.id).catch(() => undefined);
  }
});

test('at phone width each scan is a card with every field', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const acme = await (await browser.newContext()).newPage();
  await signIn(acme, demo.acmeAdmin);
  const product = await scannedProduct(acme);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, demo.platform);
    await page.goto('/admin/dashboard');
    const section = page.getByRole('region', { name: 'Scans', exact: true });
    await section.getByLabel('Brand').selectOption({ label: 'Acme Consumer Goods (acme)' });
    const card = section.getByRole('row').filter({ hasText: product.name });
    await expect(card).toHaveCount(1);
    for (const label of ['BrandId', 'BrandName', 'Time', 'Product', 'Verdict', 'Country', 'City']) {
      const line = card.getByRole('cell').filter({ hasText: label }).first();
      await expect(line).toBeVisible();
      const box = (await line.boundingBox())!;
      expect(box.x + box.width, label).toBeLessThanOrEqual(390);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  } finally {
    await archiveViaApi(acme, product.id).catch(() => undefined);
  }
});
