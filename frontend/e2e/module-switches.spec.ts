import { expect, test, type Page } from '@playwright/test';
import { csrfToken, demo, seriousViolations, signIn } from './helpers';

// Globex's digital product passports: no other spec uses them. The test puts
// its modules back as they were.
const TENANT = { clientId: 'globex', name: 'Globex Pharma Brands' };

async function modulesOf(page: Page): Promise<string[]> {
  const answer = await page.request.get('/api/platform/tenants');
  expect(answer.status()).toBe(200);
  const tenants = (await answer.json()) as { clientId: string; modules: string[] }[];
  return tenants.find((t) => t.clientId === TENANT.clientId)!.modules;
}

/** Sets the modules through the API (clean-up), as the signed-in platform admin. */
async function setModules(page: Page, modules: string[]) {
  const answer = await page.request.patch(`/api/platform/tenants/${TENANT.clientId}`, {
    data: { modules },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

test('the platform admin switches a module off: the tenant’s admin loses its link, its page and its calls', async ({
  page,
  browser,
}) => {
  await signIn(page, demo.platform);
  const before = await modulesOf(page);
  expect(before).toContain('dpp');

  const tenantContext = await browser.newContext();
  const tenant = await tenantContext.newPage();
  try {
    await signIn(tenant, demo.globexAdmin);
    const sidebar = tenant.getByRole('navigation', { name: 'Main' });
    await expect(sidebar.getByRole('link', { name: 'Digital passport' })).toBeVisible();

    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: `Modules of ${TENANT.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Modules' });
    await expect(dialog.getByRole('checkbox', { name: 'Digital product passport' })).toBeChecked();
    // Globex has no ERP module.
    await expect(dialog.getByRole('checkbox', { name: 'Inventory' })).not.toBeChecked();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('checkbox', { name: 'Digital product passport' }).uncheck();
    await dialog.getByRole('button', { name: 'Save modules' }).click();
    await expect(page.getByText(`Modules saved for ${TENANT.name}`)).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(await modulesOf(page)).not.toContain('dpp');

    // The tenant's admin, signed in all along: on the next page load the
    // link is gone, the page says it is not part of the plan, and the server
    // refuses the module's calls.
    await tenant.goto('/DPP');
    await expect(
      tenant.getByRole('heading', { name: 'This module is not part of your plan' }),
    ).toBeVisible();
    await expect(tenant.getByTestId('not-in-plan')).toContainText(
      'Digital product passport is not part of your organisation’s plan',
    );
    await expect(sidebar.getByRole('link', { name: 'Digital passport' })).toHaveCount(0);
    await expect(sidebar.getByRole('link', { name: 'Products' })).toBeVisible();
    // It is listed apart, collapsed, with why: never among the working pages.
    const apart = tenant.getByTestId('nav-unavailable');
    await expect(apart.locator('a', { hasText: 'Digital passport' })).toHaveText(
      /Digital passport\s*Not in your plan/,
    );
    const refused = await tenant.request.get('/api/passports');
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('module_disabled');

    // Switched on again, it is back at once.
    await setModules(page, before);
    await tenant.reload();
    await expect(sidebar.getByRole('link', { name: 'Digital passport' })).toBeVisible();
    await expect(
      tenant.getByTestId('nav-unavailable').locator('a', { hasText: 'Digital passport' }),
    ).toHaveCount(0);
    await expect(tenant.getByTestId('not-in-plan')).toHaveCount(0);
  } finally {
    await setModules(page, before);
    await tenantContext.close();
  }
});
