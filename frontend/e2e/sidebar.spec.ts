import { expect, test, type Page } from '@playwright/test';
import { archiveViaApi, demo, productWithCodes, signIn } from './helpers';

/**
 * No sidebar link leads to a page of errors (issue 19): every demo account
 * opens every link its sidebar shows, and the page shows no error box (an
 * error alert, an error toast, the error screen, the "unauthorized" page)
 * and makes no API call the server refuses or fails (401, 403, 5xx), shown
 * or hidden. The links are read from the sidebar itself, so the test holds
 * whatever modules an organisation has. Where the sidebar offers products,
 * a product's own page is opened too (issue 21: a client's product page
 * showed its journey and traceability as 403s).
 */

/** How long a page may take to make its calls and settle. */
const SETTLE_MS = 10_000;

type Refusal = { status: number; method: string; path: string };

function watchRefusals(page: Page): Refusal[] {
  const refusals: Refusal[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    const status = response.status();
    if (status === 401 || status === 403 || status >= 500) {
      refusals.push({ status, method: response.request().method(), path: url.pathname });
    }
  });
  return refusals;
}

/** What the page shows that reads as an error, as text. */
async function errorBoxes(page: Page): Promise<string[]> {
  const boxes = page.locator(
    [
      '.alert--error',
      '[role="alert"]:not(:empty)',
      '.Toastify__toast--error',
      '[data-testid="error-screen"]',
    ].join(', '),
  );
  const texts = await boxes.allInnerTexts();
  const headings = await page
    .getByRole('heading', {
      name: /Sorry\.\. there was an error|You do not have access to this page|Page not found/,
    })
    .allInnerTexts();
  return [...texts, ...headings].map((t) => t.trim()).filter((t) => t.length > 0);
}

async function sidebarLinks(page: Page): Promise<{ label: string; href: string }[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return nav.getByRole('link').evaluateAll((links) =>
    links.map((a) => ({
      label: a.textContent?.trim() ?? '',
      href: a.getAttribute('href') ?? '',
    })),
  );
}

for (const [account, email] of Object.entries(demo)) {
  test(`every sidebar link of ${account} opens without an error or a refused call`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const refusals = watchRefusals(page);
    await signIn(page, email);
    const links = await sidebarLinks(page);
    expect(links.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const link of links) {
      refusals.length = 0;
      await page
        .getByRole('navigation', { name: 'Main' })
        .locator(`a[href="${link.href}"]`)
        .first()
        .click();
      await expect(page).toHaveURL(
        new RegExp(`${link.href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`, 'i'),
      );
      // Pages that poll never go idle; the bound still leaves their first calls time.
      await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: SETTLE_MS });
      const boxes = await errorBoxes(page);
      for (const box of boxes) problems.push(`${link.label} (${link.href}): shows "${box}"`);
      for (const r of refusals) {
        problems.push(`${link.label} (${link.href}): ${r.method} ${r.path} answered ${r.status}`);
      }
    }
    // A product's page, with its codes, journey and traceability sections.
    if (links.some((l) => l.href.toLowerCase() === '/products')) {
      await page.goto('/products');
      await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
      const first = page
        .getByRole('main')
        .locator('a[href^="/products/"]:not([href*="_product"])')
        .first();
      if ((await first.count()) > 0) {
        refusals.length = 0;
        const href = (await first.getAttribute('href')) ?? '';
        await first.click();
        await expect(page).toHaveURL(new RegExp(`${href}$`));
        await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: SETTLE_MS });
        for (const box of await errorBoxes(page)) problems.push(`${href}: shows "${box}"`);
        for (const r of refusals) {
          problems.push(`${href}: ${r.method} ${r.path} answered ${r.status}`);
        }
        await expect(page.getByText(/Status: 403/)).toHaveCount(0);
      }
    }
    expect(problems).toEqual([]);
  });
}

// A client's admins open its product pages (its employees have no product
// pages: their sidebar offers none, and the walk above covers them).
for (const [account, email] of [
  ['client A', demo.clientAAdmin],
  ['client B', demo.clientBAdmin],
] as const) {
  test(`${account}'s product page shows its journey and traceability, without a refusal`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const refusals = watchRefusals(page);
    await signIn(page, email);
    const product = await productWithCodes(page, 4, { number: `J${Date.now() % 1_000_000}` });
    refusals.length = 0;
    await page.goto(`/products/${product.id}`);
    await expect(page.getByRole('list', { name: 'Product journey' })).toContainText(
      'Codes commissioned',
    );
    await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: SETTLE_MS });
    expect(await errorBoxes(page)).toEqual([]);
    expect(refusals).toEqual([]);
    await expect(page.getByText(/Status: 403/)).toHaveCount(0);
    await archiveViaApi(page, product.id);
  });
}

test('pages that do not work yet are grouped apart, collapsed, never among the working ones', async ({
  page,
}) => {
  await signIn(page, demo.acmeAdmin);
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Products' })).toBeVisible();
  for (const planned of ['ERP', 'Calendar', 'Task board']) {
    await expect(main.getByRole('link', { name: planned, exact: true })).toHaveCount(0);
  }
  // The icons page is a developer's tool: platform admins only.
  await expect(main.getByRole('link', { name: 'Icons' })).toHaveCount(0);
  const apart = page.getByTestId('nav-unavailable');
  const group = page.getByRole('navigation', { name: 'Not available yet' });
  await expect(group).toBeHidden();
  await apart.getByText(/Coming soon or switched off/).click();
  await expect(group.getByRole('link', { name: /^Task board\s*Coming soon/ })).toBeVisible();
  await group.getByRole('link', { name: /^Calendar/ }).click();
  await expect(page).toHaveURL(/\/calender$/);
  await expect(page.getByTestId('not-available')).toBeVisible();
});

test('platform admins find the icons page in the sidebar', async ({ page }) => {
  await signIn(page, demo.platform);
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Icons' })).toBeVisible();
});
