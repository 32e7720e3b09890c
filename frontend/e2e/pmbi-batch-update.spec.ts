import { expect, test } from '@playwright/test';
import { demo, seriousViolations, signIn } from './helpers';

test('client B: the manual form names a wrong GTIN before sending; a good form is checked by the server', async ({
  page,
}) => {
  await signIn(page, demo.clientBEmployee);
  await page.goto('/pmbi/batchUpdate');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Batch update (manual entry)' }),
  ).toBeVisible();
  const form = page.getByRole('form', { name: 'Manual batch entry' });
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/batch-updates')
      posts.push(r.url());
  });

  await form.getByLabel('Serials').fill('0000000000A');
  await form.getByLabel('GTIN').fill('4006381333932');
  await form.getByLabel('Batch number').fill('B-E2E-2');
  await form.getByLabel('Manufacturing date').fill('2026-01-01');
  await form.getByLabel('Expiry date').fill('2028-01-01');
  await form.getByLabel('Licence number').fill('KA/25/777');
  await form.getByRole('button', { name: 'Check' }).click();
  await expect(form.getByText(/The check digit is wrong/)).toBeVisible();
  expect(posts).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);

  await form.getByLabel('GTIN').fill('4006381333931');
  await form.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByRole('table', { name: 'Problems' })).toContainText(
    'No code of your organisation has this serial',
  );
  expect(posts).toHaveLength(1);
  expect(posts[0]).toContain('dry_run=true');
  await expect(
    page.getByRole('table', { name: 'Batch update history' }).getByText('Manual entry').first(),
  ).toBeVisible();
});

test('client B at phone width: the form fits', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.clientBAdmin);
  await page.goto('/pmbi/batchUpdate');
  await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('a client A user is refused /pmbi and client B’s dashboard', async ({ page }) => {
  await signIn(page, demo.clientAEmployee);
  await page.goto('/pmbi/batchUpdate');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await page.goto('/clientB/dashboard');
  await expect(page).toHaveURL(/\/unauthorized$/);
});
