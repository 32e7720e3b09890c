import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { newBrand, seriousViolations, signIn, unique, uniqueGtin } from './helpers';

/**
 * Issue 21, "Done when": a new brand's first hour, walked from its
 * dashboard's "Get started" checklist — add a product, generate codes,
 * design a label, print, scan one code with a phone, publish a passport —
 * each step reached through the checklist's own link and ticked by the
 * server, with axe on every page on the way.
 */

/** The page has settled and axe finds nothing serious on it. */
async function expectAccessible(page: Page, where: string) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  expect(await seriousViolations(page), where).toEqual([]);
}

/** Chooses the option of `select` whose label starts with `text`. */
async function choose(select: Locator, text: string) {
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value');
  await select.selectOption(value!);
}

/** Back on the dashboard: the checklist counts `done` steps, and its `next` step links on. */
async function fromChecklist(page: Page, done: number, next: string) {
  await page.goto('/');
  const checklist = page.getByRole('region', { name: 'Get started' });
  await expect(checklist).toContainText(`${done} of 6 done`);
  const steps = checklist.getByRole('listitem');
  for (let i = 0; i < 6; i += 1) {
    await expect(steps.nth(i)).toContainText(i < done ? '(done)' : '(to do)');
  }
  await expectAccessible(page, `dashboard at ${done} of 6`);
  await checklist.getByRole('link', { name: next }).click();
}

test('the first hour: from a new organisation to a scanned code and a published passport', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const organisation = `First Hour ${unique('co')}`;
  const admin = await newBrand(browser, organisation);
  await signIn(page, admin.email, admin.password);
  await page.goto('/');
  await expect(page.getByText(`Signed in as Admin at ${organisation}.`)).toBeVisible();

  // 1. A product, from the checklist's link.
  await fromChecklist(page, 0, 'Add a product');
  await expect(page).toHaveURL(/\/products\/Add_product$/);
  const name = unique('First tea');
  const productForm = page.getByRole('form', { name: 'Add product' });
  await productForm.getByLabel('Name').fill(name);
  await productForm.getByLabel('SKU id').fill(unique('FH').toUpperCase());
  await productForm.getByLabel('GTIN').fill(uniqueGtin());
  await expectAccessible(page, 'add product');
  await productForm.getByRole('button', { name: 'Add product' }).click();
  await expect(page.getByText('Product added.')).toBeVisible();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const productId = page.url().split('/').pop()!;

  // 2. Codes, on the product's page; its sample code follows without a reload.
  await fromChecklist(page, 1, 'Generate codes');
  await expect(page).toHaveURL(/\/products$/);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${productId}$`));
  const sample = page
    .getByRole('region', { name: 'Details' })
    .locator('dt:text-is("Sample code") + dd');
  await expect(sample).toHaveText('None');
  await expectAccessible(page, 'product page');
  const lot = `FH${Date.now().toString(36).toUpperCase()}`;
  const codeForm = page.getByRole('form', { name: 'Generate codes' });
  await codeForm.getByLabel('Quantity').fill('25');
  await codeForm.getByLabel('Lot number').fill(lot);
  await codeForm.getByLabel('Expires on').fill('2030-06-30');
  await codeForm.getByRole('button', { name: 'Generate codes' }).click();
  const job = page
    .getByRole('region', { name: 'Codes', exact: true })
    .getByRole('row')
    .filter({ hasText: lot });
  await expect(job.getByText('Done')).toBeVisible({ timeout: 60_000 });
  await expect(sample).not.toHaveText('None');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    job.getByRole('link', { name: /^CSV:/ }).click(),
  ]);
  const [, firstLine] = readFileSync((await download.path())!, 'utf8').split('\n');
  const codePath = new URL(firstLine!.split(',')[4]!).pathname;
  await expectAccessible(page, 'product page with its codes');

  // 3. A label design.
  await fromChecklist(page, 2, 'Design a label');
  await expect(page).toHaveURL(/\/print\/lables$/);
  await expect(page.getByRole('heading', { name: 'Label designs', level: 1 })).toBeVisible();
  const template = unique('Shelf label');
  const designForm = page.getByRole('form', { name: 'New template' });
  await designForm.getByLabel('Name', { exact: true }).fill(template);
  await designForm.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByText(`Template “${template}” saved.`)).toBeVisible();
  await expectAccessible(page, 'label designs');

  // 4. Printing it.
  await fromChecklist(page, 3, 'Print labels');
  await expect(page).toHaveURL(/\/printer\/?$/);
  await expect(page.getByRole('heading', { name: 'Print jobs', level: 1 })).toBeVisible();
  const printForm = page.getByRole('form', { name: 'New print job' });
  await choose(printForm.getByLabel('Template'), template);
  await choose(printForm.getByLabel('Code job'), name);
  await printForm.getByRole('button', { name: 'Start printing' }).click();
  await expect(page.getByText('Print job started: 25 labels to print.')).toBeVisible();
  const printJob = page
    .getByRole('table', { name: 'Print jobs' })
    .getByRole('row')
    .filter({ hasText: template });
  await expect(printJob.getByText('Done')).toBeVisible({ timeout: 60_000 });
  await expect(printJob.getByRole('link', { name: /^Download PDF:/ })).toBeVisible();
  await expectAccessible(page, 'print jobs');

  // 5. A consumer's phone scans one of the codes.
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Get started' })).toContainText('4 of 6 done');
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
  try {
    const consumer = await phone.newPage();
    const answer = await consumer.goto(codePath);
    expect(answer?.status()).toBe(200);
    await expect(
      consumer.getByRole('heading', { level: 1, name: 'Genuine product' }),
    ).toBeVisible();
    await expect(consumer.locator('body')).toContainText(name);
    await expectAccessible(consumer, 'scan page on a phone');
  } finally {
    await phone.close();
  }

  // 6. The product's passport, published.
  await fromChecklist(page, 5, 'Publish a passport');
  await expect(page).toHaveURL(/\/DPP$/);
  await expectAccessible(page, 'passports');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/DPP/${productId}$`));
  const passport = page.getByRole('form', { name: 'Passport' });
  await passport
    .getByRole('region', { name: 'Repair' })
    .getByRole('textbox', { name: 'Repair instructions' })
    .fill('Descale it every month.');
  await expectAccessible(page, 'passport editor');
  await passport.getByRole('button', { name: 'Publish version 1' }).click();
  await expect(page.getByText('Version 1 published.')).toBeVisible();

  // Every step done: the checklist steps aside, and the server says why.
  await page.goto('/');
  await expect(page.getByText(`Signed in as Admin at ${organisation}.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Get started' })).toHaveCount(0);
  const state = (await (await page.request.get('/api/organisation/get-started')).json()) as {
    steps: { key: string; done: boolean }[];
  };
  expect(state.steps.map((s) => [s.key, s.done])).toEqual([
    ['product', true],
    ['codes', true],
    ['label', true],
    ['print', true],
    ['scan', true],
    ['passport', true],
  ]);
  await expectAccessible(page, 'dashboard, all done');
});
