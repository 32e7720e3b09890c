import { expect, test, type Page } from '@playwright/test';
import { csrfToken, demo, seriousViolations, signIn } from './helpers';

// Client B: no other spec looks at its limits. Its demo file sets a product
// limit of 100; the test puts it back.
const TENANT = { clientId: 'clientB', name: 'Client B Laboratories', productLimit: 100 };

function tenantRow(page: Page) {
  return page
    .getByRole('table', { name: 'Tenants' })
    .getByRole('row')
    .filter({ has: page.getByText(TENANT.clientId, { exact: true }) });
}

/** Sets the product limit through the API (clean-up), as the signed-in platform admin. */
async function setProductLimit(page: Page, productLimit: number) {
  const answer = await page.request.patch(`/api/platform/tenants/${TENANT.clientId}`, {
    data: { productLimit },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

function countLimitChanges(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'PATCH' && pathname.startsWith('/api/platform/tenants/')) {
      calls.push(pathname);
    }
  });
  return calls;
}

test('platform admin edits a tenant’s product limit; out-of-range values are refused', async ({
  page,
}) => {
  const patches = countLimitChanges(page);
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  const row = tenantRow(page);
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('columnheader', { name: 'Product limit' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Code quota' })).toBeVisible();
  await expect(row).toContainText('10,000,000'); // its code quota, with separators
  await expect(row).toContainText(/\d+ \/ 10/); // users against the user limit

  try {
    await row.getByRole('button', { name: `Edit limits for ${TENANT.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit limits' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('User limit')).toHaveValue('10');
    await expect(dialog.getByLabel('Product limit')).toHaveValue(String(TENANT.productLimit));
    await expect(dialog.getByLabel('Code quota')).toHaveValue('10000000');
    await expect(dialog).toContainText(
      'Lowering a limit below current use blocks new additions; nothing is deleted.',
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Out of range: the field says why, and nothing is sent.
    await dialog.getByLabel('Product limit').fill('2000000');
    await dialog.getByRole('button', { name: 'Save limits' }).click();
    await expect(dialog.getByText('Enter a whole number from 0 to 1,000,000.')).toBeVisible();
    await expect(dialog.getByLabel('Product limit')).toHaveAttribute('aria-invalid', 'true');
    expect(patches).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // In range: saved, a toast, the row changes without a reload.
    await dialog.getByLabel('Product limit').fill('1234');
    await dialog.getByRole('button', { name: 'Save limits' }).click();
    await expect(page.getByText(`Limits updated for ${TENANT.name}`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('1,234');
    expect(patches).toEqual([`/api/platform/tenants/${TENANT.clientId}`]);

    // The server agrees after a reload.
    await page.reload();
    await expect(tenantRow(page)).toContainText('1,234');

    // The server refuses what the form would not send, naming the field.
    const refused = await page.request.patch(`/api/platform/tenants/${TENANT.clientId}`, {
      data: { productLimit: 2_000_000 },
      headers: { 'x-csrf-token': await csrfToken(page) },
    });
    expect(refused.status()).toBe(400);
    const body = (await refused.json()) as { error: string; code: string };
    expect(body.error).toContain('productLimit');
    await page.reload();
    await expect(tenantRow(page)).toContainText('1,234');
  } finally {
    await setProductLimit(page, TENANT.productLimit);
  }
});

test('Onboard a tenant: optional product limit and code quota, defaults named', async ({
  page,
}) => {
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  await page.getByRole('button', { name: 'Onboard a tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Onboard a tenant' });
  await expect(dialog.getByLabel('Product limit')).toHaveValue('');
  await expect(dialog.getByLabel('Product limit')).toHaveAccessibleDescription(
    'Optional: 0 to 1,000,000; leave empty for the default, 100.',
  );
  await expect(dialog.getByLabel('Code quota')).toHaveAccessibleDescription(
    'Optional: 0 to 10,000,000,000; leave empty for the default, 1,000,000.',
  );
  await dialog.getByLabel('Code quota').fill('-1');
  await dialog.getByRole('button', { name: 'Create tenant' }).click();
  await expect(dialog.getByText('Enter a whole number from 0 to 10,000,000,000.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('at 1280 px the tenants table fits: every row’s buttons are on screen without scrolling sideways', async ({
  page,
}) => {
  await signIn(page, demo.platform);
  await page.goto('/admin/dashboard');
  await expect(tenantRow(page)).toHaveCount(1);
  // The tenants table's (the scans table below it has its own).
  const wrap = page
    .locator('.table-wrap')
    .filter({ has: page.getByRole('table', { name: 'Tenants' }) });
  const sideways = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(sideways, 'the table scrolls sideways by this many pixels').toBe(0);
  const box = (await wrap.boundingBox())!;
  for (const name of [`Edit limits for ${TENANT.name}`, `Suspend ${TENANT.name}`]) {
    const button = (await tenantRow(page).getByRole('button', { name }).boundingBox())!;
    expect(button.x + button.width, name).toBeLessThanOrEqual(box.x + box.width);
  }
});
