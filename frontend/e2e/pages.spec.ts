import { expect, test } from '@playwright/test';
import { addUserViaApi, demo, removeUserByEmail, signIn, signOut, unique } from './helpers';

test('profile shows my details', async ({ page }) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/profile');
  const details = page.getByRole('region', { name: 'Your details' });
  await expect(details).toContainText('Wendy Worker');
  await expect(details).toContainText(demo.acmeWorker);
  await expect(details).toContainText('Acme Consumer Goods');
});

test('a user changes their own password, and preferences follow them across sign-ins', async ({
  page,
}) => {
  const name = unique('Mia');
  const email = `${name.toLowerCase()}@acme.test`;
  await signIn(page, demo.acmeAdmin);
  await addUserViaApi(page, { name, email, password: 'mia-password-1', role: 'manager' });
  await signOut(page);
  try {
    await signIn(page, email, 'mia-password-1');

    // Own password, proving the current one.
    await page.goto('/profile');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password', { exact: true }).fill('wrong-current-1');
    await form.getByLabel('New password', { exact: true }).fill('mia-password-2');
    await form.getByLabel('Repeat new password', { exact: true }).fill('mia-password-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    await form.getByLabel('Current password', { exact: true }).fill('mia-password-1');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();

    // Preferences are kept on the server.
    await page.goto('/Settings');
    await page.getByRole('radio', { name: 'Dark', exact: true }).check();
    await page.getByLabel('Landing page').selectOption('/ui/table');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    await signOut(page);
    await signIn(page, email, 'mia-password-2');
    await expect(page).toHaveURL(/\/ui\/table$/);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await signOut(page);
  } finally {
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signIn(page, demo.acmeAdmin);
    await removeUserByEmail(page, email);
  }
});

test('configuration and usage show the organisation', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/configuration');
  await expect(page.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Organisation name' })).toHaveValue(
    'Acme Consumer Goods',
  );
  await expect(page.getByRole('table', { name: 'Modules' })).toContainText('Label printing');

  await page.goto('/ui/table');
  const usage = page.getByRole('table', { name: 'Usage' });
  await expect(usage.getByRole('row').filter({ hasText: 'Users' })).toBeVisible();
});

test('modules of later issues say honestly that they are not available yet', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  for (const path of ['/erp/finance', '/Sales']) {
    await page.goto(path);
    await expect(page.getByTestId('not-available')).toContainText('Not available yet');
  }
});

test('/pharmagen/batchupdate (spec §6): brands learn where batch data comes from, clients go to their own batch updates', async ({
  browser,
}) => {
  for (const [email, where] of [
    [demo.acmeManager, /\/pharmagen\/batchupdate$/],
    [demo.clientAAdmin, /\/gme\/batchUpdate$/],
    [demo.clientBAdmin, /\/clientB\/dashboard$/],
    [demo.acmeWorker, /\/unauthorized$/],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/pharmagen/batchupdate');
    await expect(page).toHaveURL(where);
    if (email === demo.acmeManager) {
      await expect(
        page.getByRole('region', { name: 'Batch updates are for pharmaceutical clients' }),
      ).toBeVisible();
      // The server refuses brands the batch updates themselves.
      expect((await page.request.get('/api/batch-updates')).status()).toBe(403);
    }
    await context.close();
  }
});

test('the icon gallery is searchable', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/icons/solar');
  const grid = page.getByRole('list', { name: 'Icons' });
  await expect(grid.getByRole('listitem').first()).toBeVisible();
  await page.getByLabel('Search icons').fill('trash bin');
  await expect(grid.getByText('trash-bin-trash', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'icons' })).toContainText(
    /^\d+ of \d[\d,]* icons$/,
  );
});

test('platform admin onboards, suspends and reactivates a tenant', async ({ page }) => {
  const clientId = unique('t').replace(/-/g, '_').slice(0, 30);
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('row').filter({ hasText: 'acme' }).first()).toBeVisible();

  await page.getByRole('button', { name: 'Onboard a tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Onboard a tenant' });
  await dialog.getByLabel('Tenant id').fill(clientId);
  await dialog.getByLabel('Organisation name').fill(`Tenant ${clientId}`);
  await dialog.getByLabel('User limit').fill('5');
  await dialog.getByLabel('Admin name').fill('First Admin');
  await dialog.getByLabel('Admin email').fill(`admin@${clientId.replace(/_/g, '-')}.test`);
  await dialog.getByLabel('Admin password', { exact: true }).fill('tenant-admin-1');
  await dialog.getByRole('button', { name: 'Create tenant' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  const tenantRow = page.getByRole('row').filter({ hasText: clientId });
  await expect(tenantRow).toContainText('active');
  await tenantRow.getByRole('button', { name: /Suspend/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Suspend' }).click();
  await expect(tenantRow).toContainText('suspended');
  await tenantRow.getByRole('button', { name: /Reactivate/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reactivate' }).click();
  await expect(tenantRow).toContainText('active');
});
