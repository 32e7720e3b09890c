import { expect, test } from '@playwright/test';
import { demo, seriousViolations, signIn } from './helpers';

test('login page: no serious or critical axe violations (light and dark)', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await seriousViolations(page)).toEqual([]);
});

test('All Users page and its modals: no serious or critical axe violations', async ({ page }) => {
  await signIn(page, demo.acmeAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByRole('dialog', { name: 'Add New User' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByTitle('Update Password').first().click();
  await expect(page.getByRole('dialog', { name: 'Update Password' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('keyboard: the modal keeps focus inside and Escape returns it', async ({ page }) => {
  await signIn(page, demo.acmeAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  const addUser = page.getByRole('button', { name: 'Add User' });
  await addUser.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  for (let i = 0; i < 15; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(addUser).toBeFocused();
});

test('Alt+T moves keyboard focus to the toasts', async ({ page }) => {
  await signIn(page, demo.acmeAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  const toasts = page.locator('.Toastify__toast-container--top-right');
  await expect(toasts.getByText('Invalid Email format.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Alt+KeyT');
  expect(await toasts.evaluate((el) => el.contains(document.activeElement))).toBe(true);
});

test('the other main pages: no serious or critical axe violations', async ({ page }) => {
  // Nine pages, each fully scanned by axe (the icon gallery is large): on a
  // busy two-core machine this takes longer than one page's default time.
  test.setTimeout(180_000);
  await signIn(page, demo.acmeAdmin);
  for (const path of [
    '/',
    '/profile',
    '/Settings',
    '/configuration',
    '/ui/table',
    '/icons/solar',
    '/TermsAndConditions',
    '/products',
    '/auth/404',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
  }
});
