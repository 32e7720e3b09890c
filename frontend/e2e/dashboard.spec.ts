import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  demo,
  productWithCodes,
  screenshot,
  seriousViolations,
  signIn,
} from './helpers';

/** What a consumer's phone does: opens the code's public link (no sign-in). */
async function scan(page: Page, path: string) {
  const answer = await page.request.get(path, {
    headers: {
      accept: 'application/json',
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
    },
  });
  expect(answer.status(), await answer.text()).toBeLessThan(400);
}

function analytics(page: Page) {
  return page.getByRole('region', { name: 'Scan analytics' });
}

test('the dashboard shows this test’s scans: totals, charts with their tables, places and codes', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  // The charts and the map draw under the app's Content-Security-Policy.
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await signIn(page, demo.acmeAdmin);
  const product = await productWithCodes(page, 3);
  try {
    const [first, second] = product.codes;
    await scan(page, first!.path);
    await scan(page, first!.path);
    await scan(page, second!.path);

    await page.goto('/');
    const section = analytics(page);
    await expect(section.getByRole('form', { name: 'Date range' })).toContainText(
      /Scans from .+ to .+, both days included\./,
    );
    const totals = section.getByLabel('Totals');
    await expect(totals).toBeVisible();
    await expect(totals.getByText('Scans', { exact: true })).toBeVisible();
    // The charts load on demand, each with its label; the map draws a world.
    await expect(section.getByRole('img', { name: /^Line chart of scans per day/ })).toBeVisible();
    await expect(section.getByRole('img', { name: /^Doughnut chart: / })).toBeVisible();
    await expect(
      section.getByRole('img', { name: /^Bar chart of scans per product/ }),
    ).toBeVisible();
    await expect(section.getByRole('img', { name: 'World map of scans' })).toBeVisible();
    expect(await section.locator('.scan-map path').count()).toBeGreaterThan(100);

    // Per product (the chart's table): this product with its 3 scans.
    const perProduct = section.getByRole('region', { name: 'Scans per product' });
    await perProduct.getByText('Show the figures as a table').click();
    await expect(
      perProduct.getByRole('table', { name: 'Scans per product' }).getByRole('row').filter({
        hasText: product.name,
      }),
    ).toContainText('3');

    // Scans from the test machine have no known place: "Unknown".
    await expect(
      section.getByRole('table', { name: 'Scans by place' }).getByRole('row').filter({
        hasText: 'Unknown',
      }),
    ).not.toHaveCount(0);

    // The most scanned codes: the first code, twice, named by its product.
    const codes = page.getByRole('region', { name: 'Most scanned codes' });
    const showAll = codes.getByRole('button', { name: /^Show all/ });
    if (await showAll.isVisible()) await showAll.click();
    const row = codes.getByRole('row').filter({ hasText: first!.serial });
    await expect(row).toContainText(product.name);
    await expect(row).toContainText('2');
    await expect(codes.getByText('QR codes left in your plan')).toBeVisible();

    await page.waitForLoadState('networkidle');
    await screenshot(page, testInfo, 'dashboard-scans');

    // A custom range in the past has no scans, and says so.
    const form = section.getByRole('form', { name: 'Date range' });
    await form.getByLabel('From').fill('2020-01-01');
    await form.getByLabel('To').fill('2020-01-31');
    await form.getByRole('button', { name: 'Show' }).click();
    await expect(section.getByText(/^No scans yet between/)).toBeVisible();
    await expect(section.getByLabel('Totals')).toContainText('0');

    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    // Dark theme: the whole page, the sidebar's current link and the avatar included.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const dark = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      dark.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    ).toEqual([]);
    await screenshot(page, testInfo, 'dashboard-scans-empty-range');
    expect(cspViolations).toEqual([]);
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('at phone width the dashboard fits the screen, charts and tables included', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeAdmin);
  const product = await productWithCodes(page, 1);
  try {
    await scan(page, product.codes[0]!.path);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const section = analytics(page);
    await expect(section.getByLabel('Totals')).toBeVisible();
    await expect(section.getByRole('img', { name: /^Line chart of scans per day/ })).toBeVisible();
    await expect(section.getByRole('img', { name: 'World map of scans' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Suspicious-scan rules' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The chart fits its card.
    const chart = await section
      .getByRole('img', { name: /^Line chart of scans per day/ })
      .boundingBox();
    expect(chart!.x + chart!.width).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, 'dashboard-scans-phone');
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('admins see the suspicious-scan rules as a form checked before sending; workers only read them', async ({
  page,
  browser,
}) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Suspicious-scan rules' });
  const count = form.getByLabel('Different consumers per code');
  await expect(count).not.toHaveValue('');
  const saved = await count.inputValue();

  await count.fill('0');
  await form.getByRole('button', { name: 'Save rules' }).click();
  await expect(count).toHaveAccessibleDescription(/Enter a whole number from 1 to 1,000\./);

  // Saving the rules as they were changes nothing for the other tests.
  await count.fill(saved);
  await form.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByText('Suspicious-scan rules saved.')).toBeVisible();

  const worker = await (await browser.newContext()).newPage();
  await signIn(worker, demo.acmeWorker);
  await worker.goto('/');
  const rules = worker.getByRole('region', { name: 'Suspicious-scan rules' });
  await expect(rules).toContainText(`more than ${saved} different consumers`);
  await expect(worker.getByRole('form', { name: 'Suspicious-scan rules' })).toHaveCount(0);
  await expect(analytics(worker).getByLabel('Totals')).toBeVisible();
});

test('a code scanned by more consumers than the rules allow is flagged, and its history opens', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeAdmin);
  const product = await productWithCodes(page, 1);
  try {
    const code = product.codes[0]!;
    const rules = (await (await page.request.get('/api/scan-settings')).json()) as {
      suspicious_scan_count: number;
    };
    // One more consumer than the rules allow, each a phone of its own (its own
    // cookie); the first scans twice, a repeat that counts once.
    const consumers = rules.suspicious_scan_count + 1;
    const origin = new URL(page.url()).origin;
    for (let i = 0; i < consumers; i++) {
      const phone = await playwright.request.newContext({ baseURL: origin });
      for (let n = 0; n < (i === 0 ? 2 : 1); n++) {
        const answer = await phone.get(code.path, {
          headers: {
            accept: 'application/json',
            'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
          },
        });
        expect(answer.status(), await answer.text()).toBe(200);
      }
      await phone.dispose();
    }

    await page.goto('/');
    const codes = page.getByRole('region', { name: 'Most scanned codes' });
    const showAll = codes.getByRole('button', { name: /^Show all/ });
    if (await showAll.isVisible()) await showAll.click();
    const row = codes.getByRole('row').filter({ hasText: code.serial });
    await expect(row).toContainText('Suspicious');
    await row.getByRole('button', { name: `Scan history of code ${code.serial}` }).click();
    const dialog = page.getByRole('dialog', { name: `Scans of code ${code.serial}` });
    const history = dialog.getByRole('table', { name: `Scans of code ${code.serial}` });
    await expect(history.locator('tbody tr')).toHaveCount(consumers + 1);
    await expect(history.locator('tbody tr').last()).toContainText('First scan');
    await expect(history.locator('tbody tr').last()).toContainText('Consumer 1');
    await expect(history.locator('tbody tr').nth(-2)).toContainText('Repeat by this consumer');
    await expect(history.locator('tbody tr').first()).toContainText(`Consumer ${consumers}`);
    await expect(history.locator('tbody tr').first()).toContainText('Suspicious');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'dashboard-code-history');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(dialog).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'dashboard-code-history-phone');
  } finally {
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('a platform admin chooses the brand whose scans to see', async ({ page }) => {
  await signIn(page, demo.platform);
  await page.goto('/');
  const section = analytics(page);
  await expect(section.getByText(/choose one to see its scans/)).toBeVisible();
  await section.getByLabel('Brand').selectOption({ label: 'Acme Consumer Goods' });
  await expect(section.getByRole('table', { name: 'Most scanned codes' })).toBeVisible();
  await expect(section.getByText('QR codes left in the plan')).toBeVisible();
});

test('a client organisation’s admin is told that scan analytics are for brands', async ({
  page,
}) => {
  await signIn(page, demo.clientAAdmin);
  await page.goto('/');
  await expect(analytics(page)).toContainText('Scan analytics are kept for brands');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Go to' })).toBeVisible();
});
