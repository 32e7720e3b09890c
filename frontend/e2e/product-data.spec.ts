import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  csrfToken,
  demo,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

async function expectNoSeriousViolations(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
}

/** Nothing on the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
}

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('an editor uploads an image, sees it and removes it; a worker only sees it', async ({
  page,
  browser,
}) => {
  await signIn(page, demo.acmeAdmin);
  const name = unique('Pictured');
  const { id } = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('PIC').toUpperCase(),
    gtin: uniqueGtin(),
  });
  try {
    await page.goto(`/products/${id}`);
    const images = page.getByRole('region', { name: 'Images' });
    await expect(images).toContainText('No images yet.');

    // Checked before sending: not an image.
    await images.getByLabel('Add an image').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect(images.getByRole('alert')).toContainText('notes.txt is not a PNG, JPEG or WebP');

    await images
      .getByLabel('Add an image')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await images.getByRole('button', { name: 'Upload image' }).click();
    await expect(page.getByText('Image added.')).toBeVisible();
    const image = images.getByRole('img', { name: `${name}, image 1` });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    await expectNoSeriousViolations(page, 'product page with an image');

    // A worker sees the image, but no upload or Remove.
    const workerContext = await browser.newContext();
    const worker = await workerContext.newPage();
    await signIn(worker, demo.acmeWorker);
    await worker.goto(`/products/${id}`);
    const workerImages = worker.getByRole('region', { name: 'Images' });
    await expect(workerImages.getByRole('img', { name: `${name}, image 1` })).toBeVisible();
    await expect(workerImages.getByLabel('Add an image')).toHaveCount(0);
    await expect(workerImages.getByRole('button', { name: /Remove image/ })).toHaveCount(0);
    await workerContext.close();

    await images.getByRole('button', { name: 'Remove image 1' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove image' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(page.getByText('Image removed.')).toBeVisible();
    await expect(images).toContainText('No images yet.');
  } finally {
    await archiveViaApi(page, id);
  }
});

test('an editor adds typed attributes and sees them on the product page', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  const name = unique('Attributed');
  await page.goto('/products/Add_product');
  const form = page.getByRole('form', { name: 'Add product' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('SKU id').fill(unique('ATT').toUpperCase());
  await form.getByLabel('GTIN').fill(uniqueGtin());

  const add = form.getByRole('button', { name: 'Add attribute' });
  for (let i = 0; i < 4; i += 1) await add.click();
  const row = (n: number) => form.getByRole('listitem').nth(n);
  await row(0).getByLabel('Attribute name').fill('Net weight');
  await row(0).getByLabel('Type').selectOption('Number');
  await row(0).getByLabel('Value').fill('500');
  await row(1).getByLabel('Attribute name').fill('Vegan');
  await row(1).getByLabel('Type').selectOption('Yes/No');
  await row(1).getByLabel('Yes').check();
  await row(2).getByLabel('Attribute name').fill('Best before');
  await row(2).getByLabel('Type').selectOption('Date');
  await row(2).getByLabel('Value').fill('2030-06-30');
  await row(3).getByLabel('Attribute name').fill('net WEIGHT');
  await form.getByRole('button', { name: 'Add product' }).click();
  await expect(row(3).getByText('Another attribute already has this name.')).toBeVisible();
  await row(3).getByLabel('Attribute name').fill('Colour');
  await row(3).getByLabel('Value').fill('Green');
  await form.getByRole('button', { name: 'Add product' }).click();

  await expect(page.getByText('Product added.')).toBeVisible();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  try {
    const attributes = page.getByRole('region', { name: 'Attributes' });
    const value = (term: string) =>
      attributes.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    await expect(value('Net weight')).toHaveText('500');
    await expect(value('Vegan')).toHaveText('Yes');
    await expect(value('Best before')).toContainText('2030');
    await expect(value('Colour')).toHaveText('Green');

    // Edit: the list is loaded and sent whole.
    await page.getByRole('link', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit product' });
    await expect(edit.getByRole('listitem')).toHaveCount(4);
    await expectNoSeriousViolations(page, 'edit form with attributes');
    await edit.getByRole('button', { name: 'Remove attribute 4' }).click();
    await edit.getByRole('listitem').nth(1).getByLabel('Yes').uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Product updated.')).toBeVisible();
    await expect(value('Vegan')).toHaveText('No');
    await expect(value('Net weight')).toHaveText('500');
    await expect(attributes.locator('dt', { hasText: 'Colour' })).toHaveCount(0);
  } finally {
    await archiveViaApi(page, id);
  }
});

test('an editor imports a CSV after a dry run, and exports the products', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  const names = [unique('Imported A'), unique('Imported B')];
  const skus = [unique('IMPA').toUpperCase(), unique('IMPB').toUpperCase()];
  const csv = [
    'product_name,skuid,gtin,category',
    `${names[0]},${skus[0]},${uniqueGtin()},Imported`,
    `${names[1]},${skus[1]},${uniqueGtin()},Imported`,
    '',
  ].join('\n');
  const ids: string[] = [];
  try {
    await page.goto('/products');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const section = page.getByRole('region', { name: 'Import products from CSV' });

    // A file with a bad row: its problem, and no Import.
    await section.getByLabel('CSV file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('product_name,skuid,gtin\nBroken,BRK-1,123\n'),
    });
    const problems = section.getByRole('table', { name: 'Import problems' });
    await expect(problems).toContainText('gtin');
    await expect(section.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'import problems');

    await section.getByLabel('CSV file').setInputFiles({
      name: 'products.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await expect(section).toContainText('2 products ready to import.');
    await section.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('2 products imported.')).toBeVisible();

    for (const name of names) {
      await page.getByLabel('Search').fill(name);
      const link = page.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      ids.push((await link.getAttribute('href'))!.split('/').pop()!);
    }

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(
      'product_name,skuid,gtin,category,product_description',
    );
    expect(text).toContain(skus[0]);
  } finally {
    for (const id of ids) await archiveViaApi(page, id);
  }
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the product page, its images and the attributes editor fit the screen', async ({
    page,
  }) => {
    await signIn(page, demo.acmeAdmin);
    const name = unique('Phone');
    const { id } = await createProductViaApi(page, {
      product_name: name,
      skuid: unique('PHO').toUpperCase(),
      gtin: uniqueGtin(),
    });
    try {
      const token = await csrfToken(page);
      const uploaded = await page.request.post(`/api/products/${id}/images`, {
        multipart: { file: { name: 'dot.png', mimeType: 'image/png', buffer: PNG } },
        headers: { 'x-csrf-token': token },
      });
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      const changed = await page.request.patch(`/api/products/${id}`, {
        data: { attributes: [{ type: 'date', name: 'Best before', value: '2030-01-31' }] },
        headers: { 'x-csrf-token': token },
      });
      expect(changed.status(), await changed.text()).toBe(200);

      await page.goto(`/products/${id}`);
      const images = page.getByRole('region', { name: 'Images' });
      await expect(images.getByRole('img', { name: `${name}, image 1` })).toBeVisible();
      await expect(images.getByRole('button', { name: 'Upload image' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Attributes' })).toContainText('Best before');
      await expectNoSidewaysScroll(page);

      await page.goto(`/products/Edit_product/${id}`);
      const edit = page.getByRole('form', { name: 'Edit product' });
      await edit.getByRole('button', { name: 'Add attribute' }).click();
      await expect(edit.getByRole('listitem')).toHaveCount(2);
      await expect(edit.getByRole('button', { name: 'Remove attribute 2' })).toBeInViewport();
      await expectNoSidewaysScroll(page);

      await page.goto('/products');
      await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      await expect(page.getByLabel('CSV file')).toBeVisible();
      await expectNoSidewaysScroll(page);
    } finally {
      await archiveViaApi(page, id);
    }
  });
});
