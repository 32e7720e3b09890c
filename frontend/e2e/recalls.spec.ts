import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { csrfToken, demo, seriousViolations, signIn, unique, uniqueGtin } from './helpers';

/**
 * A product and one released lot of it, made through the API. (Lots made
 * from it come from manufacturing orders, another part of the issue: the
 * API tests, backend/tests/api/trace.rs, cover the recall's reach through
 * them.)
 */
async function releasedLot(page: Page) {
  const headers = { 'x-csrf-token': await csrfToken(page) };
  const name = unique('Eye <b>drops</b>');
  const created = await page.request.post('/api/products', {
    data: { product_name: name, skuid: unique('RC').toUpperCase(), gtin: uniqueGtin() },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as { id: string };
  const number = `RC${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
  const lot = await page.request.post('/api/lots', {
    data: { product_id: product.id, number, expires_on: '2031-01-31' },
    headers,
  });
  expect(lot.status(), await lot.text()).toBe(201);
  const body = (await lot.json()) as { id: string; status: string };
  expect(body.status).toBe('released');
  return { id: body.id, name, number };
}

test('a manager picks a lot on /Logistics, sees its genealogy, recalls it with a reason, downloads the list and finds it among past recalls', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeManager);
  const lot = await releasedLot(page);
  await page.goto('/Logistics');
  await expect(page.getByRole('heading', { level: 1, name: 'Logistics' })).toBeVisible();

  const screen = page.getByRole('region', { name: 'Recall a lot' });
  await screen.getByLabel('Lot').selectOption({ label: `${lot.number} · ${lot.name} (released)` });
  // Upstream and downstream on one screen.
  await expect(screen.getByRole('table', { name: `Upstream of lot ${lot.number}` })).toContainText(
    'No component lots recorded.',
  );
  await expect(
    screen.getByRole('table', { name: `Downstream of lot ${lot.number}` }),
  ).toContainText('No lot was made from it.');

  const form = screen.getByRole('form', { name: `Recall lot ${lot.number}` });
  await form.getByRole('button', { name: `Recall lot ${lot.number}` }).click();
  await expect(form.getByText('Say why the lot is recalled')).toBeVisible();
  await form.getByLabel('Reason').fill('Particles <found> in a sample');
  await form.getByRole('button', { name: `Recall lot ${lot.number}` }).click();

  const result = screen.getByRole('group', { name: /^Recall RC-\d{6}$/ });
  await expect(result).toContainText('Particles <found> in a sample');
  await expect(result).toContainText('1 lot(s) recalled');
  await expect(result.getByRole('table', { name: /^Lots of RC-/ })).toContainText('Recalled now');

  const download = page.waitForEvent('download');
  await result.getByRole('link', { name: 'Download the affected list (CSV)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^recall-RC-\d{6}-affected\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toContain('recall,recalled_lot,depth,product');
  expect(csv).toContain(lot.number);

  const past = page.getByRole('region', { name: 'Past recalls' });
  await expect(past.getByRole('row').filter({ hasText: lot.number })).toContainText(
    'Particles <found> in a sample',
  );

  // The lot is recalled now: a second recall says so.
  const again = await page.request.post('/api/recalls', {
    data: { lot_id: lot.id, reason: 'again' },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(again.status()).toBe(409);
  expect(await seriousViolations(page)).toEqual([]);
});

test('a worker reads recalls and genealogies on a phone but cannot start a recall', async ({
  page,
}) => {
  await signIn(page, demo.acmeManager);
  const lot = await releasedLot(page);
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.acmeWorker);
  await page.goto('/Logistics');
  const screen = page.getByRole('region', { name: 'Recall a lot' });
  await screen.getByLabel('Lot').selectOption({ label: `${lot.number} · ${lot.name} (released)` });
  await expect(screen.getByText('Only admins and managers can start a recall.')).toBeVisible();
  await expect(screen.getByRole('form', { name: `Recall lot ${lot.number}` })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Past recalls' })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(overflow).toBe(false);
});
