import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, demo, signIn, signOut } from './helpers';

test.describe('sign in as each demo role', () => {
  const accounts = [
    {
      email: demo.acmeAdmin,
      name: 'Ada Admin',
      role: 'Admin',
      sees: 'All Users',
      hidden: 'Tenants',
    },
    {
      email: demo.acmeManager,
      name: 'Max Manager',
      role: 'Manager',
      sees: 'Settings',
      hidden: 'All Users',
    },
    {
      email: demo.acmeWorker,
      name: 'Wendy Worker',
      role: 'Worker',
      sees: 'Products',
      hidden: 'Settings',
    },
    { email: demo.globexAdmin, role: 'Admin', sees: 'All Users', hidden: 'Tenants' },
    {
      email: demo.clientAAdmin,
      role: 'Admin',
      sees: 'Client A dashboard',
      hidden: 'Client B dashboard',
    },
    {
      email: demo.clientAEmployee,
      role: 'Employee',
      sees: 'Client A dashboard',
      hidden: 'All Users',
    },
    {
      email: demo.clientBAdmin,
      role: 'Admin',
      sees: 'Client B dashboard',
      hidden: 'Client A dashboard',
    },
    {
      email: demo.clientBEmployee,
      role: 'Employee',
      sees: 'Client B dashboard',
      hidden: 'Client A dashboard',
    },
    { email: demo.platform, role: 'Platform admin', sees: 'Tenants', hidden: 'All Users' },
  ];

  for (const account of accounts) {
    test(account.email, async ({ page }) => {
      await signIn(page, account.email);
      await expect(page).toHaveURL(/\/$/);
      const header = page.locator('header.topbar');
      if (account.name) await expect(header).toContainText(account.name);
      await expect(header).toContainText(account.role);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: account.sees, exact: true })).toBeVisible();
      await expect(nav.getByRole('link', { name: account.hidden, exact: true })).toHaveCount(0);
    });
  }
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(demo.acmeWorker);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
});

test('signed out: a page redirects to login, and back to it after signing in', async ({ page }) => {
  await page.goto('/manage_org');
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fmanage_org$/);
  await page.getByLabel('Email').fill(demo.acmeAdmin);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/manage_org$/);
  await expect(page.getByRole('heading', { name: 'All Users' })).toBeVisible();
});

test('signed in: /auth/login redirects to /, the session survives a reload, sign-out ends it', async ({
  page,
}) => {
  await signIn(page, demo.acmeManager);
  await page.goto('/auth/login');
  await expect(page).toHaveURL(/\/$/);
  await page.reload();
  await expect(page.locator('header.topbar')).toContainText('Max Manager');

  await signOut(page);
  const stored = await page.evaluate(() => window.localStorage.getItem('root'));
  expect(stored).toBeNull();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fprofile$/);
});

test('an unknown path goes to /auth/404, signed out and signed in', async ({ page }) => {
  await page.goto('/definitely/not/a/page');
  await expect(page).toHaveURL(/\/auth\/404$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  await signIn(page, demo.acmeWorker);
  await page.goto('/productsX');
  await expect(page).toHaveURL(/\/auth\/404$/);
});

test('worker@acme.test at /manage_org goes to /unauthorized', async ({ page }) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/manage_org');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await expect(
    page.getByRole('heading', { name: 'You do not have access to this page' }),
  ).toBeVisible();
});

test('employee@clienta.test at /clientB/dashboard goes to /unauthorized; /clientA/dashboard opens', async ({
  page,
}) => {
  await signIn(page, demo.clientAEmployee);
  await page.goto('/clientB/dashboard');
  await expect(page).toHaveURL(/\/unauthorized$/);

  await page.goto('/clientA/dashboard');
  await expect(page).toHaveURL(/\/clientA\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Client A dashboard' })).toBeVisible();
});

test('a brand admin cannot open a client area', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/clientA/dashboard');
  await expect(page).toHaveURL(/\/unauthorized$/);
});

test('paths match case-insensitively and ignore a trailing slash', async ({ page }) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/PRODUCTS/');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await page.goto('/products/add_product/');
  await expect(page.getByRole('heading', { level: 1, name: 'Add product' })).toBeVisible();
});
