import { expect, test, type Locator } from '@playwright/test';
import { createProductViaApi, newBrand, signIn, unique, uniqueGtin } from './helpers';

// Issue 24: /Pricing as a fresh brand's admin, on a phone held upright: a
// graduated price list created in the form, then quotes at a tier boundary
// (9 units all at the first price, the 10th at the second).
const PHONE = { width: 390, height: 844 };

async function choose(select: Locator, text: string) {
  const option = select.locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
}

test('a graduated price list is created and quoted at its boundary', async ({ browser, page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const admin = await newBrand(browser, unique('Pricer Co'));
  await signIn(page, admin.email, admin.password);
  const product = unique('Green tea');
  await createProductViaApi(page, {
    product_name: product,
    skuid: unique('TEA').toUpperCase(),
    gtin: uniqueGtin(),
  });

  await page.goto('/Pricing');
  await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Create a price list' });
  await form.getByLabel('Name').fill('Retail');
  await form.getByLabel('Valid from').fill('2026-01-01');
  await form.getByRole('radio', { name: /Graduated/ }).check();
  await choose(form.getByLabel('Product'), product);
  await form.getByLabel('Break 1: unit price').fill('10');
  await form.getByRole('button', { name: 'Add a break' }).click();
  await form.getByLabel('Break 2: from quantity').fill('10');
  await form.getByLabel('Break 2: unit price').fill('9');
  await form.getByRole('button', { name: 'Create the list' }).click();
  const lists = page.getByRole('table', { name: 'Price lists' });
  await expect(lists).toContainText('from 1 at 10.00 EUR; from 10 at 9.00 EUR');

  const quote = page.getByRole('form', { name: 'Quote a price' });
  await choose(quote.getByLabel('Product'), product);
  await quote.getByLabel('On (optional)').fill('2026-03-01');
  for (const [quantity, total] of [
    ['9', '90.00 EUR for 9'],
    ['10', '99.00 EUR for 10'],
    ['11', '108.00 EUR for 11'],
  ]) {
    await quote.getByLabel('Quantity').fill(quantity!);
    await quote.getByRole('button', { name: 'Quote' }).click();
    await expect(page.getByText(total!)).toBeVisible();
  }
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
});
