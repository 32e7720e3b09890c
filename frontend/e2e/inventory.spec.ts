import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  createProductViaApi,
  csrfToken,
  demo,
  newBrand,
  screenshot,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

// Issue 22: /inventory and /erp/inventory, as a fresh brand, at desktop width
// and on a phone held upright.
const PHONE = { width: 390, height: 844 };

/** `days` from today, `YYYY-MM-DD`, as the person's calendar has it. */
function day(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Chooses the option of `select` whose text contains `text` (waiting until it is there). */
async function choose(select: Locator, text: string) {
  const option = select.locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
}

/** Nothing on the page, and no table in it, scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const sideways = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    tables: Array.from(document.querySelectorAll('.table-wrap')).map(
      (wrap) => wrap.scrollWidth - wrap.clientWidth,
    ),
  }));
  expect(sideways).toEqual({ page: 0, tables: sideways.tables.map(() => 0) });
}

async function newBrandWithProduct(browser: Browser, page: Page) {
  const admin = await newBrand(browser, unique('Stock Co'));
  await signIn(page, admin.email, admin.password);
  const name = unique('Oolong tea');
  await createProductViaApi(page, {
    product_name: name,
    skuid: unique('OOL').toUpperCase(),
    gtin: uniqueGtin(),
  });
  return { admin, product: name };
}

async function addLocation(page: Page, code: string, name: string, kind: string, inside?: string) {
  const form = page.getByRole('form', { name: 'Add a location' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Kind').selectOption({ label: kind });
  if (inside) await choose(form.getByLabel('Inside (optional)'), inside);
  await form.getByRole('button', { name: 'Add location' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Locations, as a tree' })
      .getByRole('row', { name: new RegExp(name) }),
  ).toBeVisible();
}

async function registerLot(page: Page, product: string, number: string, expiresOn: string) {
  const details = page.locator('details', { hasText: 'Register a new lot' });
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await details.getByText('Register a new lot').click();
  }
  const form = page.getByRole('form', { name: 'Register a lot' });
  await choose(form.getByLabel('Product of the lot'), product);
  await form.getByLabel('Lot number').fill(number);
  await form.getByLabel('Expires on (optional)').fill(expiresOn);
  await form.getByRole('button', { name: 'Register lot' }).click();
  await expect(page.getByText(`Lot ${number} registered`)).toBeVisible();
}

interface Move {
  kind: string;
  lot: string;
  quantity: string;
  from?: string;
  to?: string;
  cost?: string;
}

async function recordMove(page: Page, product: string, move: Move) {
  const form = page.getByRole('form', { name: 'Record a move' });
  await form.getByLabel('Kind of move').selectOption({ label: move.kind });
  await choose(form.getByLabel('Product', { exact: true }), product);
  await choose(form.getByLabel('Lot', { exact: true }), move.lot);
  await form.getByLabel('Quantity').fill(move.quantity);
  if (move.from) await choose(form.getByLabel('From', { exact: true }), move.from);
  if (move.to) await choose(form.getByLabel('To', { exact: true }), move.to);
  if (move.cost) {
    await form.getByLabel('Unit cost').fill(move.cost);
    await form.getByLabel('Currency').fill('EUR');
  }
  await form.getByRole('button', { name: 'Record move' }).click();
}

test('a brand keeps its stock: locations, lots, receipts, a transfer, a refused move, FEFO reservations, replenishment and valuation', async ({
  browser,
  page,
}, testInfo) => {
  // A whole working day of the page, through its forms: longer than one page's test.
  test.setTimeout(180_000);
  const { product } = await newBrandWithProduct(browser, page);
  await page.goto('/inventory');
  await expect(page.getByRole('heading', { level: 1, name: 'Inventory' })).toBeVisible();
  // Nothing yet: the page says what to do first.
  await expect(page.getByText('Stock needs a place: add a location first.')).toBeVisible();

  await addLocation(page, 'WH1', 'Main warehouse', 'Warehouse');
  await addLocation(page, 'WH1-A', 'Aisle A', 'Bin', 'WH1 —');
  await addLocation(page, 'QUAR', 'Quarantine cage', 'Quarantine', 'WH1 —');
  const tree = page.getByRole('table', { name: 'Locations, as a tree' });
  await expect(tree.getByRole('row', { name: /Aisle A/ })).toContainText('WH1 / WH1-A');

  const early = unique('E').toUpperCase().slice(0, 20);
  const late = unique('L').toUpperCase().slice(0, 20);
  await registerLot(page, product, early, day(20));
  await registerLot(page, product, late, day(200));

  await recordMove(page, product, {
    kind: 'Receipt',
    lot: late,
    quantity: '10',
    to: 'WH1 —',
    cost: '2.50',
  });
  await expect(page.getByText('Receipt of 10 recorded')).toBeVisible();
  await recordMove(page, product, {
    kind: 'Receipt',
    lot: early,
    quantity: '5',
    to: 'WH1 —',
    cost: '3',
  });
  await expect(page.getByText('Receipt of 5 recorded')).toBeVisible();
  await recordMove(page, product, {
    kind: 'Transfer',
    lot: late,
    quantity: '4',
    from: 'WH1 —',
    to: 'WH1-A',
  });
  await expect(page.getByText('Transfer of 4 recorded')).toBeVisible();

  // The stock, per location and lot, with the expiry warning of the early lot.
  const stock = page.getByRole('table', { name: 'Stock by product, location and lot' });
  await expect(stock.getByRole('row')).toHaveCount(4); // the header and three balances
  const earlyRow = stock.getByRole('row').filter({ hasText: early });
  await expect(earlyRow).toContainText('Expires in 20 days');
  await expect(earlyRow).toContainText('Released');
  await expect(stock.getByRole('row').filter({ hasText: 'WH1-A' })).toContainText('4');
  await expect(page.getByText('1 lot expires within 30 days')).toBeVisible();

  // More than there is: refused, named, and nothing moved.
  await recordMove(page, product, { kind: 'Shipment', lot: early, quantity: '100', from: 'WH1 —' });
  const refusal = page.getByRole('form', { name: 'Record a move' }).getByRole('alert');
  await expect(refusal).toContainText('Not enough stock.');
  await expect(refusal).toContainText(early);
  await expect(refusal).toContainText('Nothing was changed.');

  // The ledger, newest first.
  const ledger = page.getByRole('table', { name: 'Stock moves, newest first' });
  await expect(ledger.getByRole('row')).toHaveCount(4);
  await expect(ledger.getByRole('row').nth(1)).toContainText('Transfer');
  await expect(ledger.getByRole('row').nth(3)).toContainText('Receipt');
  await expect(ledger.getByRole('row').nth(3)).toContainText('2.50');

  // A reservation takes the earliest expiry first.
  const reserve = page.getByRole('form', { name: 'Reserve stock' });
  await choose(reserve.getByLabel('Product to reserve'), product);
  await reserve.getByLabel('Quantity to reserve').fill('7');
  await reserve.getByLabel('Reserved for').fill('SO-1');
  await reserve.getByRole('button', { name: 'Reserve' }).click();
  const reserved = page.getByRole('status').filter({ hasText: 'first expiry first out' });
  await expect(reserved).toContainText(`5 from lot ${early}`);
  await expect(reserved).toContainText(`2 from lot ${late}`);
  const active = page.getByRole('table', { name: 'Active reservations' });
  await expect(active.getByRole('row').filter({ hasText: 'SO-1' })).toBeVisible();
  await expect(earlyRow).toContainText('5'); // reserved

  // A reorder rule: 15 on hand, 7 reserved, 8 available, below a minimum of 20.
  const rule = page.getByRole('form', { name: 'Set a reorder rule' });
  await choose(rule.getByLabel('Product of the rule'), product);
  await choose(rule.getByLabel('Location watched'), 'WH1 —');
  await rule.getByLabel('Minimum').fill('20');
  await rule.getByLabel('Maximum').fill('50');
  await rule.getByRole('button', { name: 'Save rule' }).click();
  const below = page.getByRole('table', { name: 'Products below their minimum' });
  await expect(below.getByRole('row').filter({ hasText: product })).toContainText('42');

  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, testInfo, 'inventory');

  // Releasing gives the stock back.
  await active.getByRole('button', { name: 'Release SO-1' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Release' }).click();
  await expect(active.getByRole('row').filter({ hasText: 'SO-1' })).toHaveCount(0);

  // The valuation: FIFO by receipt, 5 × 3.00 + 10 × 2.50 = 40.00 EUR.
  await page.goto('/erp/inventory');
  await expect(page.getByRole('heading', { level: 1, name: 'Stock valuation' })).toBeVisible();
  const value = page.getByRole('table', { name: 'Value on hand per product and currency' });
  await expect(value.getByRole('row').filter({ hasText: product })).toContainText('40.00');
  expect(await seriousViolations(page)).toEqual([]);
});

test('a retried move with the same Idempotency-Key moves once', async ({ browser, page }) => {
  await newBrandWithProduct(browser, page);
  const token = await csrfToken(page);
  const headers = { 'x-csrf-token': token };
  const location = await page.request.post('/api/locations', {
    data: { code: 'WH1', name: 'Main', kind: 'warehouse' },
    headers,
  });
  expect(location.status(), await location.text()).toBe(201);
  const products = (await (
    await page.request.get('/api/product-handler?action=allproducts')
  ).json()) as { products: { id: string }[] };
  const productId = products.products[0]!.id;
  const lot = await page.request.post('/api/lots', {
    data: { product_id: productId, number: 'IDEM-1' },
    headers,
  });
  expect(lot.status(), await lot.text()).toBe(201);
  const move = {
    product_id: productId,
    lot_id: ((await lot.json()) as { id: string }).id,
    quantity: '3',
    to_location_id: ((await location.json()) as { id: string }).id,
    reason: 'receipt',
    unit_cost: '1.00',
    currency: 'EUR',
  };
  const key = { ...headers, 'Idempotency-Key': unique('key') };
  const first = await page.request.post('/api/stock-moves', { data: move, headers: key });
  const again = await page.request.post('/api/stock-moves', { data: move, headers: key });
  expect(first.status()).toBe(201);
  expect(again.status()).toBe(201);
  expect(((await again.json()) as { id: string }).id).toBe(
    ((await first.json()) as { id: string }).id,
  );
  await page.goto('/inventory');
  const stock = page.getByRole('table', { name: 'Stock by product, location and lot' });
  await expect(stock.getByRole('row').filter({ hasText: 'IDEM-1' })).toContainText('3');
  const ledger = page.getByRole('table', { name: 'Stock moves, newest first' });
  await expect(ledger.getByRole('row')).toHaveCount(2);
});

test('the demo brand acme has stock: a worker sees it and records moves, a manager values it', async ({
  browser,
  page,
}) => {
  await signIn(page, demo.acmeWorker);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Inventory' })
    .click();
  const stock = page.getByRole('table', { name: 'Stock by product, location and lot' });
  await expect(stock.getByRole('row').filter({ hasText: 'TEA-2511' })).toContainText(
    'Expires in 20 days',
  );
  await expect(stock.getByRole('row').filter({ hasText: 'COF-2509' })).toContainText(
    /Expired 3 days ago/,
  );
  await expect(page.getByRole('table', { name: 'Active reservations' })).toContainText('SO-2002');
  await expect(
    page.getByRole('table', { name: 'Products below their minimum' }).getByRole('row', {
      name: /Wildflower honey/,
    }),
  ).toContainText('88');
  await expect(page.getByRole('form', { name: 'Record a move' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Add a location' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Set a reorder rule' })).toHaveCount(0);
  // Every member reads the valuation.
  await expect(page.getByRole('link', { name: 'Stock valuation' })).toHaveCount(1);

  const context = await browser.newContext();
  const manager = await context.newPage();
  await signIn(manager, demo.acmeManager);
  await manager.goto('/erp/inventory');
  const value = manager.getByRole('table', { name: 'Value on hand per product and currency' });
  await expect(value.getByRole('row').filter({ hasText: 'Sencha green tea' })).toContainText(
    '691.20',
  );
  await expect(value.getByRole('row').filter({ hasText: 'Arabica coffee' })).toContainText(
    '418.00',
  );
  await expect(manager.getByText('Total in EUR').locator('..')).toContainText(/1,?198\.30/);
  await context.close();
});

test.describe('at 390 px', () => {
  test.use({ viewport: PHONE });

  test('the inventory pages fit a phone: forms, stock and ledger as cards, nothing sideways', async ({
    browser,
    page,
  }, testInfo) => {
    const { product } = await newBrandWithProduct(browser, page);
    await page.goto('/inventory');
    await addLocation(page, 'WH1', 'Main warehouse', 'Warehouse');
    const lot = unique('P').toUpperCase().slice(0, 20);
    await registerLot(page, product, lot, day(10));
    await recordMove(page, product, {
      kind: 'Receipt',
      lot,
      quantity: '2.5',
      to: 'WH1 —',
      cost: '4.125',
    });
    await expect(page.getByText('Receipt of 2.5 recorded')).toBeVisible();
    const stock = page.getByRole('table', { name: 'Stock by product, location and lot' });
    await expect(stock.getByRole('row').filter({ hasText: lot })).toContainText(
      'Expires in 10 days',
    );
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, 'inventory-phone');

    await page.goto('/erp/inventory');
    const value = page.getByRole('table', { name: 'Value on hand per product and currency' });
    await expect(value.getByRole('row').filter({ hasText: product })).toContainText('10.3125');
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
