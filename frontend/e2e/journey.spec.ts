import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  csrfToken,
  demo,
  generateCodesViaApi,
  seriousViolations,
  signIn,
  signOut,
  unique,
  uniqueGtin,
} from './helpers';

/** A GLN and an SSCC with right check digits. */
const GLN = '9506000134352';
const DESTINATION = '4000001000005';
const SSCC = '106141412345678908';

function journey(page: Page) {
  return page.getByRole('list', { name: 'Product journey' });
}

function traceability(page: Page) {
  return page.getByRole('region', { name: 'Traceability', exact: true });
}

async function newProduct(page: Page) {
  const skuid = unique('JRN').toUpperCase();
  const product = await createProductViaApi(page, {
    product_name: unique('Journey tea'),
    skuid,
    gtin: uniqueGtin(),
  });
  return { ...product, skuid };
}

test('a manager sees codes commissioned, records packing, shipping and receiving, and the journey follows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeAdmin);
  const product = await newProduct(page);
  try {
    await generateCodesViaApi(page, {
      product_id: product.id,
      quantity: 20,
      lot: { number: 'JRN1' },
    });
    await signOut(page);
    await signIn(page, demo.acmeManager);
    await page.goto(`/products/${product.id}`);

    // The code job's commissioning is the first step; traceability names its lot.
    await expect(journey(page).getByRole('listitem')).toHaveCount(1);
    await expect(journey(page)).toContainText('Codes commissioned');
    await expect(journey(page)).toContainText(`20 × GTIN ${product.gtin}, lot JRN1`);
    await expect(traceability(page)).toContainText('Lots: JRN1.');

    const form = page.getByRole('form', { name: 'Record a step' });
    // Checked before sending: packing needs a container; GLN check digits.
    await form.getByLabel('Location (GLN)').fill('9506000134353');
    await form.getByRole('button', { name: 'Record step' }).click();
    await expect(form.getByText('This GLN has a wrong check digit.')).toBeVisible();
    await expect(
      form.getByText('Give the SSCC of the case or pallet the units go into.'),
    ).toBeVisible();

    await form.getByLabel('Location (GLN)').fill(GLN);
    await form.getByLabel('Container (SSCC)').fill(SSCC);
    await form.getByLabel('Quantity').fill('20');
    await form.getByRole('button', { name: 'Record step' }).click();
    await expect(page.getByText('The packing step was recorded.')).toBeVisible();
    await expect(journey(page).getByRole('listitem')).toHaveCount(2);
    await expect(traceability(page)).toContainText(`Containers: SSCC ${SSCC}.`);

    await form.getByLabel('Step').selectOption('shipping');
    await form.getByLabel('Location (GLN)').fill(GLN);
    await form.getByLabel('Container (SSCC)').fill(SSCC);
    await form.getByLabel('Destination (GLN)').fill(DESTINATION);
    await form.getByRole('button', { name: 'Record step' }).click();
    await expect(page.getByText('The shipping step was recorded.')).toBeVisible();

    await form.getByLabel('Step').selectOption('receiving');
    await form.getByLabel('Location (GLN)').fill(DESTINATION);
    await form.getByLabel('Container (SSCC)').fill(SSCC);
    await form.getByRole('button', { name: 'Record step' }).click();
    await expect(page.getByText('The receiving step was recorded.')).toBeVisible();

    const steps = journey(page).getByRole('listitem');
    await expect(steps).toHaveCount(4);
    await expect(steps.nth(0)).toContainText('Codes commissioned');
    await expect(steps.nth(1)).toContainText('Packed');
    await expect(steps.nth(2)).toContainText(`Shipped`);
    await expect(steps.nth(2)).toContainText(`to GLN ${DESTINATION}`);
    await expect(steps.nth(3)).toContainText(`Received`);
    await expect(steps.nth(3)).toContainText(`at GLN ${DESTINATION}`);
    await expect(
      traceability(page).getByRole('list', { name: 'Shipped' }).getByRole('listitem'),
    ).toContainText(`to GLN ${DESTINATION}`);

    // The export is an EPCIS 2.0 document with the four events.
    const exported = await page.request.get(`/api/epcis/events?skuid=${product.skuid}`);
    expect(exported.status()).toBe(200);
    const doc = (await exported.json()) as {
      type: string;
      epcisBody: { eventList: { bizStep: string }[] };
    };
    expect(doc.type).toBe('EPCISDocument');
    expect(doc.epcisBody.eventList.map((e) => e.bizStep)).toEqual([
      'commissioning',
      'packing',
      'shipping',
      'receiving',
    ]);

    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await archiveViaApi(page, product.id);
  }
});

test('a worker reads the journey but gets no form; a failed load says the spec’s message', async ({
  page,
}) => {
  await signIn(page, demo.acmeAdmin);
  const product = await newProduct(page);
  try {
    await signOut(page);
    await signIn(page, demo.acmeWorker);
    await page.goto(`/products/${product.id}`);
    await expect(page.getByText(/No events yet/)).toBeVisible();
    await expect(page.getByRole('form', { name: 'Record a step' })).toHaveCount(0);

    await page.route('**/api/traceability?**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":"down","code":"internal"}',
      }),
    );
    await page.reload();
    await expect(
      traceability(page).getByText('Failed to fetch traceability. Status: 503'),
    ).toBeVisible();
  } finally {
    await page.unroute('**/api/traceability?**');
    await signOut(page);
    await signIn(page, demo.acmeAdmin);
    await archiveViaApi(page, product.id);
  }
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the journey and the form fit the screen', async ({ page }) => {
    await signIn(page, demo.acmeAdmin);
    const product = await newProduct(page);
    try {
      const token = await csrfToken(page);
      const recorded = await page.request.post('/api/epcis/steps', {
        data: { step: 'receiving', skuid: product.skuid, location: GLN },
        headers: { 'x-csrf-token': token },
      });
      expect(recorded.status(), await recorded.text()).toBe(201);
      await page.goto(`/products/${product.id}`);
      await expect(journey(page)).toContainText('Received');
      const form = page.getByRole('form', { name: 'Record a step' });
      const button = form.getByRole('button', { name: 'Record step' });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await archiveViaApi(page, product.id);
    }
  });
});
