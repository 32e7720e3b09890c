import { expect, test, type Browser, type Page } from '@playwright/test';
import { archiveViaApi, demo, productWithCodes, screenshot, signIn, unique } from './helpers';

/** A consumer's phone (no sign-in), as on the scan page spec. */
async function consumerPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
  return context.newPage();
}

async function signedIn(browser: Browser, email: string, phone = false): Promise<Page> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 } } : {});
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** The dashboard's reviews, narrowed to one product. */
async function reviewsOf(page: Page, productName: string) {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Reviews' });
  const product = section.getByLabel('Product');
  await expect(product.getByRole('option', { name: productName })).toHaveCount(1);
  await product.selectOption({ label: productName });
  return section;
}

test('a review sent from the scan page appears on the dashboard as text, and a manager hides it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, demo.acmeAdmin);
  const product = await productWithCodes(page, 2);
  const marker = unique('review');
  // Markup in a review is shown as the consumer typed it, never run or drawn.
  const text = `${marker} <b>bold</b> <img src=x onerror="document.title='owned'">`;
  const consumer = await consumerPhone(browser);
  const others: Page[] = [];
  try {
    // A real scan, and a review from the scan page's own form.
    await consumer.goto(product.codes[0]!.path);
    await expect(
      consumer.getByRole('heading', { level: 1, name: 'Genuine product' }),
    ).toBeVisible();
    await consumer.getByLabel('Your rating').selectOption('4');
    await consumer.getByLabel('Your review (optional)').fill(text);
    await consumer.getByRole('button', { name: 'Send review' }).click();
    await expect(consumer.locator('body')).toContainText('your review was saved');

    // The admin's dashboard lists it: stars with their text, the text as text.
    let reviews = await reviewsOf(page, product.name);
    const row = reviews.getByRole('row').filter({ hasText: marker });
    await expect(row).toHaveCount(1);
    await expect(row.getByText(text, { exact: true })).toBeVisible();
    await expect(row.locator('b, img')).toHaveCount(0);
    await expect(row.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
    await expect(row).toContainText(product.name);
    await expect(row).toContainText('Visible');
    await expect(row.getByRole('button', { name: /^Hide the review/ })).toBeVisible();
    expect(await page.title()).not.toBe('owned');

    // The scan's session and consumer are counted for today.
    const sessions = page.getByRole('region', { name: 'Consumer sessions' });
    await expect(sessions.getByRole('group', { name: 'Session figures' })).toBeVisible();
    await expect(
      sessions.getByRole('img', { name: /^Bar chart of consumer sessions per day/ }),
    ).toBeVisible();
    const consumers = page.getByRole('region', { name: 'Consumers' });
    await expect(consumers.getByRole('group', { name: 'Consumer figures' })).toBeVisible();
    await expect(consumers).toContainText('counts on each of those days');
    await page.waitForLoadState('networkidle');
    await screenshot(page, testInfo, 'dashboard-reviews');

    // A worker reads it, with no hide button.
    const worker = await signedIn(browser, demo.acmeWorker);
    others.push(worker);
    const workerReviews = await reviewsOf(worker, product.name);
    const workerRow = workerReviews.getByRole('row').filter({ hasText: marker });
    await expect(workerRow).toHaveCount(1);
    await expect(workerRow.getByRole('button')).toHaveCount(0);

    // Another scan of the product shows the review on the scan page (escaped).
    await consumer.goto(product.codes[1]!.path);
    await expect(consumer.locator('blockquote').filter({ hasText: marker })).toHaveText(
      new RegExp(`${marker} <b>bold</b>`),
    );

    // A manager, on a phone, hides it: a toast, the row says Hidden, the page fits.
    const manager = await signedIn(browser, demo.acmeManager, true);
    others.push(manager);
    reviews = await reviewsOf(manager, product.name);
    const managerRow = reviews.getByRole('row').filter({ hasText: marker });
    await managerRow.getByRole('button', { name: /^Hide the review/ }).click();
    await expect(manager.getByText('Review hidden. Scan pages no longer show it.')).toBeVisible();
    await expect(managerRow).toContainText('Hidden');
    await expect(managerRow.getByRole('button', { name: /^Show the review/ })).toBeVisible();
    const overflow = await manager.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(manager, testInfo, 'dashboard-reviews-phone');

    // The filter for hidden reviews finds it; the scan page no longer shows it.
    await reviews.getByLabel('Shown').selectOption({ label: 'Hidden only' });
    await expect(reviews.getByRole('row').filter({ hasText: marker })).toHaveCount(1);
    await consumer.reload();
    await expect(consumer.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(consumer.locator('body')).not.toContainText(marker);
  } finally {
    await consumer.context().close();
    for (const other of others) await other.context().close();
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});
