import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  createProductViaApi,
  csrfToken,
  newBrand,
  screenshot,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

// Issue 23: /procurement as a fresh brand's admin, on a phone held upright:
// a supplier, a purchase order, its confirmation, a receipt into a lot, and
// two supplier bills (one matching, one not) with their approvals.
const PHONE = { width: 390, height: 844 };

/** Chooses the option of `select` whose text contains `text` (waiting until it is there). */
async function choose(select: Locator, text: string) {
  const option = select.locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await select.selectOption((await option.getAttribute('value'))!);
}

/** Nothing on the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
}

test('a purchase order goes from draft to received and its bills are matched three ways', async ({
  browser,
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  const admin = await newBrand(browser, unique('Buyer Co'));
  await signIn(page, admin.email, admin.password);
  const product = unique('Citric acid');
  await createProductViaApi(page, {
    product_name: product,
    skuid: unique('CIT').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const location = await page.request.post('/api/locations', {
    data: { code: 'GOODS-IN', name: 'Goods in', kind: 'warehouse' },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(location.status(), await location.text()).toBe(201);

  await page.goto('/procurement');
  await expect(page.getByRole('heading', { level: 1, name: 'Procurement' })).toBeVisible();
  await expect(page.getByText('Add a supplier first')).toBeVisible();

  // A supplier.
  const addSupplier = page.getByRole('form', { name: 'Add a supplier' });
  await addSupplier.getByLabel('Name').fill('Acme Chemicals');
  await addSupplier.getByLabel('Country').fill('DE');
  await addSupplier.getByRole('button', { name: 'Add supplier' }).click();
  await expect(
    page.getByRole('table', { name: 'Suppliers' }).getByRole('row', { name: /Acme Chemicals/ }),
  ).toBeVisible();

  // A draft order of 100 at 2.50.
  const orderForm = page.getByRole('form', { name: 'Create a purchase order' });
  await choose(orderForm.getByLabel('Supplier'), 'Acme Chemicals');
  await orderForm.getByLabel('Expected on').fill('2030-03-01');
  await choose(orderForm.getByLabel('Product'), product);
  await orderForm.getByLabel('Quantity').fill('100');
  await orderForm.getByLabel('Unit price').fill('2.50');
  await orderForm.getByRole('button', { name: 'Create draft order' }).click();
  const panel = page.getByRole('region', { name: 'Purchase order', exact: true });
  const facts = panel.locator('.proc-facts');
  await expect(facts.getByText('Draft', { exact: true })).toBeVisible();
  const number = (await panel.locator('.proc-order-number').textContent())!.trim();
  expect(number).toMatch(/^PO-\d{6}$/);
  await expect(panel.getByText('Goods are received once the order is confirmed.')).toBeVisible();

  // Confirmed: goods may arrive.
  await panel.getByRole('button', { name: `Confirm ${number}` }).click();
  await expect(facts.getByText('Confirmed', { exact: true })).toBeVisible();

  // More than 5% over the order: refused by the form, nothing sent.
  const receive = panel.getByRole('form', { name: 'Receive goods' });
  await choose(receive.getByLabel('Into location'), 'GOODS-IN');
  await receive.getByLabel('Quantity received, line 1').fill('106');
  await receive.getByLabel('Lot number, line 1').fill('LOT-A1');
  await receive.getByRole('button', { name: 'Receive goods' }).click();
  await expect(receive.getByText('At most 105 more may be received')).toBeVisible();

  // 60 arrive: partially received, lot LOT-A1 released.
  await receive.getByLabel('Quantity received, line 1').fill('60');
  await receive.getByLabel('Expires on (optional), line 1').fill('2031-06-30');
  await receive.getByRole('button', { name: 'Receive goods' }).click();
  await expect(facts.getByText('Partially received', { exact: true })).toBeVisible();
  const receipts = panel.getByRole('region', { name: 'Receipts' });
  await expect(receipts.getByText('LOT-A1')).toBeVisible();
  await expect(receipts.getByText('released')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'procurement-receipt-phone');

  // The rest arrives: received.
  const again = panel.getByRole('form', { name: 'Receive goods' });
  await choose(again.getByLabel('Into location'), 'GOODS-IN');
  await again.getByLabel('Quantity received, line 1').fill('40');
  await again.getByLabel('Lot number, line 1').fill('LOT-A1');
  await again.getByRole('button', { name: 'Receive goods' }).click();
  await expect(facts.getByText('Received', { exact: true })).toBeVisible();

  // A bill that matches (prefilled with what was received, at the order's price).
  const bills = panel.getByRole('region', { name: 'Supplier bills' });
  let billForm = bills.getByRole('form', { name: 'Record a supplier bill' });
  await billForm.getByLabel('Bill number').fill('INV-1');
  await billForm.getByLabel('Quantity billed, line 1').fill('60');
  await billForm.getByRole('button', { name: 'Record bill' }).click();
  await expect(bills.getByText('Matched')).toBeVisible();
  await bills.getByRole('button', { name: 'Approve bill INV-1' }).click();
  await expect(bills.getByText('Approved')).toBeVisible();

  // A bill at another price for more than is left: a mismatch, approved by
  // the admin with a reason.
  billForm = bills.getByRole('form', { name: 'Record a supplier bill' });
  await billForm.getByLabel('Bill number').fill('INV-2');
  await billForm.getByLabel('Quantity billed, line 1').fill('50');
  await billForm.getByLabel('Unit price billed, line 1').fill('2.75');
  await billForm.getByRole('button', { name: 'Record bill' }).click();
  await expect(bills.getByText('Mismatch')).toBeVisible();
  await expect(
    bills.getByText('billed 50, but only 40 received and not billed before'),
  ).toBeVisible();
  await expect(bills.getByText(/billed at .*2\.75, ordered at .*2\.50/)).toBeVisible();
  const approve = bills.getByRole('form', { name: 'Approve bill INV-2' });
  await approve.getByRole('button', { name: 'Approve bill INV-2' }).click();
  await expect(approve.getByText('Give the reason you approve')).toBeVisible();
  await approve.getByLabel('Reason to approve bill INV-2 anyway').fill('Price rise agreed');
  await approve.getByRole('button', { name: 'Approve bill INV-2' }).click();
  await expect(bills.getByText('Approved because: Price rise agreed')).toBeVisible();

  // The same number again for this supplier: the server's message.
  billForm = bills.getByRole('form', { name: 'Record a supplier bill' });
  await billForm.getByLabel('Bill number').fill('inv-1');
  await billForm.getByLabel('Quantity billed, line 1').fill('1');
  await billForm.getByRole('button', { name: 'Record bill' }).click();
  await expect(billForm.getByRole('alert')).toContainText('has a bill numbered inv-1 already');
  await expectNoSidewaysScroll(page);

  // The order is listed as received.
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Received' });
  await expect(
    page
      .getByRole('table', { name: 'Purchase orders' })
      .getByRole('row', { name: new RegExp(number) }),
  ).toBeVisible();
});
