import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  addUserViaApi,
  demo,
  removeUserByEmail,
  screenshot,
  seriousViolations,
  signIn,
  unique,
} from './helpers';

// A phone held upright (iPhone 12 to 15): tables become cards, and nothing a
// person needs is off screen.
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/**
 * Brings `locator` into view vertically only (a horizontal scroll would hide
 * exactly what this file tests), then checks that it lies wholly within the
 * screen's width and that no part of the page or its table scrolls sideways.
 */
async function expectWithinWidth(page: Page, locator: Locator) {
  await expect(locator).toBeVisible();
  await locator.evaluate((el) =>
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 120),
  );
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  const sideways = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tables: Array.from(document.querySelectorAll('.table-wrap')).map(
      (wrap) => wrap.scrollWidth - wrap.clientWidth,
    ),
  }));
  expect(sideways).toEqual({ page: 0, tables: sideways.tables.map(() => 0) });
}

/** The text is shown whole: not clipped by its box. */
async function expectReadable(page: Page, locator: Locator, text: string) {
  await expect(locator).toHaveText(text);
  await expectWithinWidth(page, locator);
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(clipped, `"${text}" is clipped`).toBe(false);
}

test('All Users at 390 px: a row shows its name and email, and its Update Password and Delete User buttons work', async ({
  page,
}, testInfo) => {
  const name = unique('Pia');
  const email = `${name.toLowerCase()}@acme.test`;
  await signIn(page, demo.acmeAdmin);
  await addUserViaApi(page, { name, email, password: 'phone-password-1', role: 'worker' });
  try {
    await page.goto('/manage_org');
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expectReadable(page, row.getByText(name, { exact: true }), name);
    await expectReadable(page, row.getByText(email, { exact: true }), email);
    await screenshot(page, testInfo, 'all-users-phone');
    expect(await seriousViolations(page)).toEqual([]);

    const update = row.getByRole('button', { name: `Update Password for ${name}` });
    await expectWithinWidth(page, update);
    await update.click();
    const dialog = page.getByRole('dialog', { name: 'Update Password' });
    await dialog.getByLabel('New Password', { exact: true }).fill('phone-password-2');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Password updated successfully')).toBeVisible();
    await expect(dialog).toBeHidden();

    const remove = row.getByRole('button', { name: `Delete User ${name}` });
    await expectWithinWidth(page, remove);
    await remove.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('User Deleted Successfully')).toBeVisible();
    await expect(row).toHaveCount(0);
  } finally {
    await removeUserByEmail(page, email);
  }
});

test('Tenants at 390 px: a row shows its organisation and limits, Edit limits opens, and its Suspend button opens the confirmation', async ({
  page,
}) => {
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  // The tenants table's row (the scans table below lists acme's scans too).
  const row = page
    .getByRole('table', { name: 'Tenants' })
    .getByRole('row')
    .filter({ has: page.getByText('acme', { exact: true }) });
  await expect(row).toHaveCount(1);
  await expectReadable(page, row.getByText('acme', { exact: true }), 'acme');
  await expectWithinWidth(page, row.getByText('5,000,000', { exact: true }));
  const editLimits = row.getByRole('button', { name: /^Edit limits for / });
  await expectWithinWidth(page, editLimits);
  await editLimits.click();
  const limits = page.getByRole('dialog', { name: 'Edit limits' });
  await expectWithinWidth(page, limits.getByRole('button', { name: 'Save limits' }));
  await limits.getByRole('button', { name: 'Cancel' }).click();
  await expect(limits).toBeHidden();
  const suspend = row.getByRole('button', { name: /^(Suspend|Reactivate) / });
  await expectWithinWidth(page, suspend);
  await suspend.click();
  // Other tests sign in at acme: look, but do not suspend it.
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('acme', { ignoreCase: true });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
});

test('Usage at 390 px: every line of the usage table is on screen', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/ui/table');
  const usage = page.getByRole('table', { name: 'Usage' });
  const users = usage.getByRole('row').filter({ hasText: 'Users' });
  await expectWithinWidth(page, users);
});
