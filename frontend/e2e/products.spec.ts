import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  csrfToken,
  demo,
  seriousViolations,
  signIn,
  signOut,
  unique,
  uniqueGtin,
} from './helpers';

function row(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

async function expectNoSeriousViolations(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
}

test('admin adds a product, finds it, edits it and archives it', async ({ page }) => {
  test.setTimeout(120_000);
  const name = unique('Oat milk');
  const skuid = unique('OAT').toUpperCase();
  const gtin = uniqueGtin();
  const wrongGtin = `${gtin.slice(0, -1)}${(Number(gtin.slice(-1)) + 1) % 10}`;
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/products'))
      posts.push(request.method());
  });

  await signIn(page, demo.acmeAdmin);
  await page.goto('/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /of [\d,]+ products/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'list');

  await page.getByRole('link', { name: 'Add product' }).click();
  await expect(page).toHaveURL(/\/products\/Add_product$/);
  const form = page.getByRole('form', { name: 'Add product' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('SKU id').fill(skuid);
  await form.getByLabel('GTIN').fill(wrongGtin);
  await form.getByLabel('Category').fill('Drinks');
  await form.getByLabel('Description').fill('Made from oats.\nKeep cool.');
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(form.getByText(/The check digit \(the last digit\) is wrong/)).toBeVisible();
  expect(posts).toEqual([]);
  await expectNoSeriousViolations(page, 'add form with an error');

  await form.getByLabel('GTIN').fill(gtin);
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added.')).toBeVisible();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  try {
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details).toContainText(skuid);
    await expect(details).toContainText(`0${gtin}`); // stored as GTIN-14
    await expect(details).toContainText('Made from oats.');
    await expect(page.getByRole('region', { name: 'Codes', exact: true })).toContainText(
      /codes left in your plan/,
    );
    await expectNoSeriousViolations(page, 'detail');

    // In the list, found by SKU id and by GTIN.
    await page.getByRole('link', { name: 'All products' }).click();
    await page.getByLabel('Search').fill(skuid);
    await expect(row(page, name)).toBeVisible();
    await expect(row(page, name)).toContainText(`0${gtin}`);
    await page.getByLabel('Search').fill(gtin.slice(2, 11));
    await expect(row(page, name)).toBeVisible();
    await page.getByLabel('Category').selectOption('Drinks');
    await expect(row(page, name)).toBeVisible();

    // Edit.
    await row(page, name)
      .getByRole('link', { name: `Edit ${name}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/products/Edit_product/${id}$`));
    const edit = page.getByRole('form', { name: 'Edit product' });
    await expect(edit.getByLabel('Name')).toHaveValue(name);
    await edit.getByLabel('Name').fill(`${name} light`);
    await expectNoSeriousViolations(page, 'edit form');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Product updated.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/products/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name: `${name} light` })).toBeVisible();

    // At phone width the row is a card with its buttons on screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/products');
    await page.getByLabel('Search').fill(skuid);
    for (const action of [`Edit ${name} light`, `Archive ${name} light`]) {
      const button = row(page, name).getByRole(action.startsWith('Edit') ? 'link' : 'button', {
        name: action,
      });
      await expect(button).toBeInViewport();
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Archive, with confirmation.
    await row(page, name)
      .getByRole('button', { name: `Archive ${name} light` })
      .click();
    const confirm = page.getByRole('alertdialog', { name: 'Archive product' });
    await expect(confirm).toContainText('Are you sure you want to archive this product?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, name)).toBeVisible();
    await row(page, name)
      .getByRole('button', { name: `Archive ${name} light` })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Archive product' })
      .getByRole('button', { name: 'Archive' })
      .click();
    await expect(page.getByText('Product archived.')).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: /of [\d,]+ products/ })).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);
    expect(posts).toEqual(['POST', 'PATCH', 'DELETE']);
  } finally {
    await archiveViaApi(page, id).catch(() => undefined);
  }
});

test('a worker lists and adds products but sees no Edit or Archive', async ({ page }) => {
  const name = unique('Worker item');
  const skuid = unique('WRK').toUpperCase();
  await signIn(page, demo.acmeWorker);
  // A worker may add (spec §6: /products/Add_product).
  const created = await page.request.post('/api/products', {
    data: { product_name: name, skuid, gtin: uniqueGtin() },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  try {
    await page.goto('/products');
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await page.getByLabel('Search').fill(skuid);
    await expect(row(page, name)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add product' })).toBeVisible();
    await expect(page.getByTitle('Edit')).toHaveCount(0);
    await expect(page.getByTitle('Archive')).toHaveCount(0);
    await expectNoSeriousViolations(page, 'worker list');

    await row(page, name).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);

    await page.goto(`/products/Edit_product/${id}`);
    await expect(page).toHaveURL(/\/unauthorized$/);
  } finally {
    await page.goto('/');
    await signOut(page);
    await signIn(page, demo.acmeAdmin);
    await archiveViaApi(page, id);
  }
});
