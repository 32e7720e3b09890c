import { expect, test, type Page } from '@playwright/test';
import { demo, removeUserByEmail, signIn, signOut, unique } from './helpers';

function countClientAuthCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/client-auth') calls.push(request.method());
  });
  return calls;
}

async function addUser(
  page: Page,
  user: { name: string; email: string; password: string; role?: string },
) {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name').fill(user.name);
  if (user.role) await dialog.getByLabel('Role').selectOption(user.role);
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  return dialog;
}

function row(page: Page, email: string) {
  return page.getByRole('row').filter({ hasText: email });
}

test('All Users: add, invalid email, update a password and sign in with it, delete with confirmation', async ({
  page,
}) => {
  const name = unique('Pat');
  const email = `${name.toLowerCase()}@acme.test`;
  const calls = countClientAuthCalls(page);

  await signIn(page, demo.acmeAdmin);
  await page.goto('/manage_org');
  await expect(page.getByRole('heading', { name: 'All Users', level: 1 })).toBeVisible();
  await expect(row(page, demo.acmeWorker)).toBeVisible();
  await expect(row(page, demo.acmeWorker).getByTitle('Delete User')).toBeVisible();
  await expect(row(page, demo.acmeWorker).getByTitle('Update Password')).toBeVisible();

  try {
    // An invalid email: the toast, and nothing sent.
    let dialog = await addUser(page, { name, email: 'not-an-email', password: 'first-password-1' });
    await expect(page.getByText('Invalid Email format.').first()).toBeVisible();
    expect(calls).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // Add: role select defaults to Worker.
    await page.getByRole('button', { name: 'Add User' }).click();
    dialog = page.getByRole('dialog', { name: 'Add New User' });
    await expect(dialog.getByLabel('Role')).toHaveValue('worker');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    dialog = await addUser(page, { name, email, password: 'first-password-1' });
    await expect(page.getByText('User Added Successfully!')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row(page, email)).toContainText('Worker');
    expect(calls).toEqual(['POST']);

    // Update the new user's password.
    await row(page, email).getByTitle('Update Password').click();
    const pw = page.getByRole('dialog', { name: 'Update Password' });
    await expect(pw.getByLabel('New Password', { exact: true })).toHaveValue('');
    await pw.getByRole('button', { name: 'Submit' }).click();
    expect(calls).toEqual(['POST']); // empty: nothing sent
    await pw.getByLabel('New Password', { exact: true }).fill('second-password-2');
    await pw.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Password updated successfully')).toBeVisible();
    await expect(pw).toBeHidden();

    // Sign in as the new user with the new password.
    await signOut(page);
    await signIn(page, email, 'second-password-2');
    await expect(page.locator('header.topbar')).toContainText(name);
    await signOut(page);

    // Delete, with confirmation.
    await signIn(page, demo.acmeAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
    await expect(page).toHaveURL(/\/manage_org$/);
    await row(page, email).getByTitle('Delete User').click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to delete this user?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, email)).toBeVisible();
    await row(page, email).getByTitle('Delete User').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('User Deleted Successfully')).toBeVisible();
    await expect(row(page, email)).toHaveCount(0);

    // The list was updated without a reload; a reload agrees.
    await page.reload();
    await expect(row(page, demo.acmeWorker)).toBeVisible();
    await expect(row(page, email)).toHaveCount(0);
  } finally {
    if (await page.evaluate(() => window.localStorage.getItem('root') !== null)) {
      await removeUserByEmail(page, email).catch(() => undefined);
    }
  }
});

test('globex: adding users until the limit shows the limit toast', async ({ page }) => {
  const added: string[] = [];
  await signIn(page, demo.globexAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  await expect(page.getByRole('heading', { name: 'All Users', level: 1 })).toBeVisible();
  try {
    let limitReached = false;
    for (let attempt = 0; attempt < 6 && !limitReached; attempt += 1) {
      const name = unique('Gus');
      const email = `${name.toLowerCase()}@globex.test`;
      const dialog = await addUser(page, { name, email, password: 'globex-password-1' });
      const outcome = page
        .getByText('User Added Successfully!')
        .or(page.getByText('You have reached the limit to add users.'));
      await expect(outcome.first()).toBeVisible();
      if (await page.getByText('You have reached the limit to add users.').isVisible()) {
        limitReached = true;
        await expect(dialog).toBeVisible();
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      } else {
        added.push(email);
        await expect(row(page, email)).toBeVisible();
        // Let the success toast go so the next outcome is unambiguous.
        await page.locator('.Toastify__toast').first().hover();
        await page.locator('.Toastify__close-button').first().click();
        await expect(page.getByText('User Added Successfully!')).toHaveCount(0);
      }
    }
    expect(limitReached).toBe(true);
  } finally {
    for (const email of added) await removeUserByEmail(page, email);
  }
});

test("a client organisation's admin adds an employee: the form offers the server's roles", async ({
  page,
}) => {
  const name = unique('Esha');
  const email = `${name.toLowerCase()}@clienta.test`;
  await signIn(page, demo.clientAAdmin, undefined, '/auth/login?redirectTo=%2Fmanage_org');
  await expect(page.getByRole('heading', { name: 'All Users', level: 1 })).toBeVisible();
  await expect(row(page, demo.clientAEmployee)).toContainText('Employee');
  try {
    // Client organisations have employees: the one role offered, and chosen.
    await page.getByRole('button', { name: 'Add User' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add New User' });
    const role = dialog.getByLabel('Role');
    await expect(role).toHaveValue('employee');
    await expect(role.locator('option')).toHaveText(['Employee']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    dialog = await addUser(page, { name, email, password: 'esha-password-1' });
    await expect(page.getByText('User Added Successfully!')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row(page, email)).toContainText('Employee');

    // The new employee signs in and reaches client A's area.
    await signOut(page);
    await signIn(page, email, 'esha-password-1');
    await expect(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Client A dashboard' }),
    ).toBeVisible();
    await signOut(page);
  } finally {
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signIn(page, demo.clientAAdmin);
    await removeUserByEmail(page, email);
  }
});
