import { expect, test } from '@playwright/test';
import { demo, screenshot, signIn } from './helpers';

// One picture of each main page, saved under test-results/screenshots.

test('screenshots: login, 404 and the pages of an org admin', async ({ page }, testInfo) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await screenshot(page, testInfo, 'login');
  await page.goto('/auth/404');
  await screenshot(page, testInfo, 'not-found');

  await signIn(page, demo.acmeAdmin);
  const pages: [string, string, RegExp | string][] = [
    ['dashboard', '/', /Good (morning|afternoon|evening)/],
    ['all-users', '/manage_org', 'All Users'],
    ['profile', '/profile', 'Profile'],
    ['settings', '/Settings', 'Settings'],
    ['configuration', '/configuration', 'Configuration'],
    ['usage', '/ui/table', 'Usage'],
    ['terms', '/TermsAndConditions', 'Terms and conditions'],
    ['privacy', '/PrivacyPolicy', 'Privacy policy'],
    ['icons', '/icons/solar', 'Solar icons'],
    ['products', '/products', 'Products'],
    ['not-available-sales', '/Sales', 'Sales'],
    ['pricing', '/Pricing', 'Pricing'],
    ['procurement', '/procurement', 'Procurement'],
    ['inventory', '/inventory', 'Inventory'],
  ];
  for (const [name, path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await screenshot(page, testInfo, name);
  }

  await page.goto('/manage_org');
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByRole('dialog', { name: 'Add New User' })).toBeVisible();
  await screenshot(page, testInfo, 'all-users-add-modal');
});

test('screenshots: unauthorized, platform admin, dark theme and phone width', async ({
  page,
}, testInfo) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/manage_org');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await screenshot(page, testInfo, 'unauthorized');

  await page.getByRole('button', { name: 'Sign in as someone else' }).click();
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tenants' })).toBeVisible();
  await screenshot(page, testInfo, 'admin-dashboard');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, testInfo, 'dashboard-dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  await screenshot(page, testInfo, 'admin-dashboard-phone');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await screenshot(page, testInfo, 'menu-phone');
});
