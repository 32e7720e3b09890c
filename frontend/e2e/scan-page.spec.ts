import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  archiveViaApi,
  csrfToken,
  demo,
  productWithCodes,
  screenshot,
  seriousViolations,
  signIn,
  unique,
} from './helpers';

/** A consumer's phone: 390 × 844, a phone's user agent, no sign-in, in `locale`'s language. */
async function phone(browser: Browser, locale = 'en-GB'): Promise<Page> {
  const context = await browser.newContext({
    locale,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
  return context.newPage();
}

/** Console messages about the Content-Security-Policy. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

test('the public scan page on a phone: verdict, product, lot and expiry, a review form that works', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeAdmin);
  const lot = `L${Date.now().toString(36).toUpperCase()}`;
  const product = await productWithCodes(page, 1, { number: lot, expires_on: '2031-12-31' });
  // A German phone: dates follow the browser's language, as on the staff pages.
  const consumer = await phone(browser, 'de-DE');
  try {
    const csp = watchCsp(consumer);
    const answer = await consumer.goto(product.codes[0]!.path);
    expect(answer?.status()).toBe(200);

    // The verdict first, in view, and nothing wider than the screen.
    const verdict = consumer.getByRole('heading', { level: 1, name: 'Genuine product' });
    await expect(verdict).toBeVisible();
    await expect(verdict).toBeInViewport();
    expect(await horizontalOverflow(consumer)).toBeLessThanOrEqual(0);

    // The product, its lot and expiry.
    const productSection = consumer.locator('section').filter({
      has: consumer.getByRole('heading', { name: 'Product', exact: true }),
    });
    await expect(productSection).toContainText(product.name);
    await expect(productSection).toContainText(lot);
    const expiry = productSection.locator('time[datetime="2031-12-31"]');
    await expect(expiry).toHaveText('31.12.2031');
    await expect(productSection).not.toContainText('2031-12-31');
    await expect(
      consumer.getByText('This is the first time this code has been scanned.'),
    ).toBeVisible();

    // The review form: usable at this width.
    const reviews = consumer.locator('section').filter({
      has: consumer.getByRole('heading', { name: 'Reviews', exact: true }),
    });
    const rating = reviews.getByLabel('Your rating');
    const text = reviews.getByLabel('Your review (optional)');
    const send = reviews.getByRole('button', { name: 'Send review' });
    for (const control of [rating, text, send]) {
      await control.scrollIntoViewIfNeeded();
      await expect(control).toBeVisible();
      const box = await control.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    expect(await seriousViolations(consumer)).toEqual([]);
    await screenshot(consumer, testInfo, 'scan-page-phone');

    await rating.selectOption('5');
    await text.fill(`Tastes as it should. ${unique('scan-page')}`);
    await send.tap();
    await expect(consumer.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
    await expect(consumer.locator('body')).toContainText('your review was saved');
    // The thank-you page leads back to the product's page.
    await consumer.getByRole('link', { name: 'Back to the product’s page' }).tap();
    await expect(
      consumer.getByRole('heading', { level: 1, name: 'Genuine product' }),
    ).toBeVisible();
    await expect(consumer.getByText('You have scanned this pack before.')).toBeVisible();
    expect(await horizontalOverflow(consumer)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(consumer)).toEqual([]);
    expect(csp).toEqual([]);
  } finally {
    await consumer.context().close();
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('a malformed link says it cannot be checked, on a phone, without CSP violations', async ({
  browser,
}, testInfo) => {
  const consumer = await phone(browser);
  try {
    const csp = watchCsp(consumer);
    const answer = await consumer.goto('/01/12345/21/X');
    expect(answer?.status()).toBe(400);
    const heading = consumer.getByRole('heading', {
      level: 1,
      name: 'This link cannot be checked',
    });
    await expect(heading).toBeVisible();
    await expect(heading).toBeInViewport();
    expect(await horizontalOverflow(consumer)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(consumer)).toEqual([]);
    await screenshot(consumer, testInfo, 'scan-page-malformed-link');
    expect(csp).toEqual([]);
  } finally {
    await consumer.context().close();
  }
});

/** A valid 2×1 RGB PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAEAf8HAAH/4iOeWQAAAABJRU5ErkJggg==',
  'base64',
);

test('the brand on the scan page: set in /configuration, shown with the product image, CSP clean', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeAdmin);
  const product = await productWithCodes(page, 1);
  const image = await page.request.post(`/api/products/${product.id}/images`, {
    multipart: { file: { name: 'pack.png', mimeType: 'image/png', buffer: PNG } },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(image.status(), await image.text()).toBe(201);

  // /configuration: a file that is not an image is refused before sending;
  // a PNG is uploaded and previewed.
  await page.goto('/configuration');
  const section = page.getByRole('region', { name: 'Brand on the scan page' });
  await expect(section).toBeVisible();
  const upload = section.getByLabel(/Upload a logo|Replace the logo/);
  await upload.setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg/>'),
  });
  await expect(section.getByRole('alert')).toContainText('is not a PNG, JPEG or WebP image');
  await upload.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await section.getByRole('button', { name: 'Upload logo' }).click();
  const preview = section.getByRole('img', { name: /logo$/ });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  expect(await seriousViolations(page)).toEqual([]);

  const consumer = await phone(browser);
  try {
    const csp = watchCsp(consumer);
    const answer = await consumer.goto(product.codes[0]!.path);
    expect(answer?.status()).toBe(200);
    const brand = consumer.locator('header.brand');
    await expect(brand).toContainText('A product of');
    const logo = brand.getByRole('img', { name: /logo$/ });
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    const photo = consumer.getByRole('img', { name: `Photo of ${product.name}` });
    await expect(photo).toBeVisible();
    expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    expect(await horizontalOverflow(consumer)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(consumer)).toEqual([]);
    await screenshot(consumer, testInfo, 'scan-page-brand');
    expect(csp).toEqual([]);
  } finally {
    await consumer.context().close();
    // The demo brand keeps no logo: other tests see it as it was.
    await page.goto('/configuration');
    await page
      .getByRole('region', { name: 'Brand on the scan page' })
      .getByRole('button', { name: 'Remove logo' })
      .click();
    await expect(page.getByText(/No logo yet/)).toBeVisible();
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});
