import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';

test('the app runs under its Content-Security-Policy without a single violation', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  const login = await page.goto('/auth/login');
  const csp = login?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe-inline');

  await signIn(page, demo.acmeAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  // A toast: its styles come from the bundled stylesheet, not an injected <style>.
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  const toasts = page.locator('.Toastify__toast-container--top-right');
  await expect(toasts.getByText('Invalid Email format.')).toBeVisible();
  expect(await toasts.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  await page.keyboard.press('Escape');

  for (const path of ['/', '/Settings', '/profile', '/icons/solar']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(violations).toEqual([]);
});
