import { expect, test, type Page } from '@playwright/test';
import {
  archiveViaApi,
  csrfToken,
  demo,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/** A product that requires inspection and one lot of it (in quarantine), made through the API. */
async function lotInQuarantine(page: Page) {
  const headers = { 'x-csrf-token': await csrfToken(page) };
  const name = unique('Cough <b>syrup</b>');
  const created = await page.request.post('/api/products', {
    data: {
      product_name: name,
      skuid: unique('QA').toUpperCase(),
      gtin: uniqueGtin(),
      requires_inspection: true,
    },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as { id: string };
  const number = `QA${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
  const lot = await page.request.post('/api/lots', {
    data: { product_id: product.id, number, expires_on: '2030-06-30' },
    headers,
  });
  expect(lot.status(), await lot.text()).toBe(201);
  const body = (await lot.json()) as { id: string; status: string };
  expect(body.status).toBe('quarantine');
  return { productId: product.id, name, number };
}

test('a manager inspects a lot in quarantine, it is held, downloads its certificate, releases it with a reason and works a nonconformance through CAPA', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeManager);
  const lot = await lotInQuarantine(page);
  try {
    await page.goto('/QAandCompliance');
    await expect(page.getByRole('heading', { level: 1, name: 'QA and compliance' })).toBeVisible();

    // Lots by status: the new lot waits in quarantine.
    const lots = page.getByRole('region', { name: 'Lots by status' });
    await lots.getByLabel('Status').selectOption('quarantine');
    const row = lots.getByRole('row').filter({ hasText: lot.number });
    await expect(row).toContainText('Quarantine');
    await expect(row).toContainText(lot.name);
    await row.getByRole('button', { name: `Open lot ${lot.number}` }).click();

    const panel = page.getByRole('region', { name: `Lot ${lot.number}` });
    await expect(panel.getByText('No inspection yet.')).toBeVisible();

    // An inspection with a check out of its limits, and one by text.
    const form = panel.getByRole('form', { name: 'Record inspection' });
    await form.getByRole('button', { name: 'Record inspection' }).click();
    await expect(form.getByText('Name what was checked (e.g. pH).')).toBeVisible();
    const first = form.getByRole('group', { name: 'Check 1' });
    await first.getByLabel('Parameter').fill('pH');
    await first.getByLabel('Min').fill('6.5');
    await first.getByLabel('Max').fill('7.5');
    await first.getByLabel('Value found').fill('7.9');
    await form.getByRole('button', { name: 'Add check' }).click();
    const second = form.getByRole('group', { name: 'Check 2' });
    await second.getByLabel('Parameter').fill('Appearance <i>');
    await second.getByLabel('Decided by').selectOption('expected');
    await second.getByLabel('Expected').fill('Clear');
    await second.getByLabel('Value found').fill('clear');
    await form.getByRole('button', { name: 'Record inspection' }).click();
    await expect(
      page.getByText(`Inspection recorded: failed. Lot ${lot.number} is held.`),
    ).toBeVisible();
    await expect(panel.getByText('Held', { exact: true }).first()).toBeVisible();
    const checks = panel.getByRole('table', { name: /^Checks of the inspection/ });
    await expect(checks.getByRole('row').filter({ hasText: 'pH' })).toContainText('Fail');
    await expect(checks.getByRole('row').filter({ hasText: 'Appearance <i>' })).toContainText(
      'Pass',
    );

    // The certificate of analysis downloads as a PDF.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Certificate of analysis (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`coa-${lot.number}.pdf`);

    // A passing inspection does not release a held lot; a manager does, with a reason.
    const status = panel.getByRole('form', { name: 'Change lot status' });
    await status.getByLabel('New status').selectOption('released');
    await status.getByRole('button', { name: 'Change status' }).click();
    await expect(status.getByText(/Say why the status changes/)).toBeVisible();
    await status.getByLabel('Reason').fill('Retested: pH 7.1 by the second laboratory.');
    await status.getByRole('button', { name: 'Change status' }).click();
    await expect(page.getByText(`Lot ${lot.number} is released.`)).toBeVisible();

    // A nonconformance about the lot, moved through its states in order.
    const board = page.getByRole('region', { name: 'Nonconformances' });
    const raise = board.getByRole('form', { name: 'Raise nonconformance' });
    const title = unique('pH out of range');
    await raise.getByLabel('Title').fill(title);
    await raise
      .getByLabel('Lot', { exact: true })
      .selectOption({ label: `Lot ${lot.number} (${lot.name})` });
    await raise.getByLabel('Description').fill('pH 7.9 at release testing.');
    await raise.getByRole('radio', { name: 'Major' }).check();
    await raise.getByRole('button', { name: 'Raise nonconformance' }).click();
    const open = board.getByRole('region', { name: /^Open/ });
    const card = () => board.getByRole('article', { name: title });
    await expect(open.getByRole('article', { name: title })).toContainText(`Lot ${lot.number}`);

    await card()
      .getByRole('button', { name: `Move “${title}” to investigating` })
      .click();
    await card().getByRole('button', { name: 'Move to Investigating' }).click();
    await expect(
      board.getByRole('region', { name: /^Investigating/ }).getByRole('article', { name: title }),
    ).toBeVisible();

    await card()
      .getByRole('button', { name: `Move “${title}” to action` })
      .click();
    await card().getByRole('button', { name: 'Move to Action' }).click();
    await expect(card().getByText('Needed to move to action.')).toBeVisible();
    await card().getByLabel('Root cause').fill('Buffer solution expired.');
    await card().getByRole('button', { name: 'Move to Action' }).click();
    await expect(
      board.getByRole('region', { name: /^Action/ }).getByRole('article', { name: title }),
    ).toContainText('Buffer solution expired.');

    await card()
      .getByRole('button', { name: `Move “${title}” to verification` })
      .click();
    await card().getByLabel('Corrective action').fill('Buffers dated and checked daily.');
    await card().getByRole('button', { name: 'Move to Verification' }).click();
    await card()
      .getByRole('button', { name: `Move “${title}” to closed` })
      .click();
    await card().getByLabel('Verification note').fill('Ten lots tested without deviation.');
    await card().getByRole('button', { name: 'Move to Closed' }).click();
    const closed = board.getByRole('region', { name: /^Closed/ });
    await expect(closed.getByRole('article', { name: title })).toContainText(
      'Ten lots tested without deviation.',
    );
    await expect(card().getByRole('button', { name: /^Move/ })).toHaveCount(0);

    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await archiveViaApi(page, lot.productId);
  }
});

test('at 390 px a worker records an inspection that releases a lot from quarantine, without status or CAPA actions', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // The manager registers the lot (workers do not), in a context of its own.
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await signIn(manager, demo.acmeManager);
  const lot = await lotInQuarantine(manager);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.acmeWorker);
  await page.goto('/QAandCompliance');
  const lots = page.getByRole('region', { name: 'Lots by status' });
  await lots.getByLabel('Status').selectOption('quarantine');
  await lots
    .getByRole('row')
    .filter({ hasText: lot.number })
    .getByRole('button', { name: `Open lot ${lot.number}` })
    .click();
  const panel = page.getByRole('region', { name: `Lot ${lot.number}` });
  await expect(panel.getByRole('form', { name: 'Change lot status' })).toHaveCount(0);
  const check = panel.getByRole('group', { name: 'Check 1' });
  await check.getByLabel('Parameter').fill('Assay');
  await check.getByLabel('Min').fill('98');
  await check.getByLabel('Max').fill('102');
  await check.getByLabel('Value found').fill('99.5');
  await panel.getByRole('button', { name: 'Record inspection' }).click();
  await expect(
    page.getByText(`Inspection recorded: passed. Lot ${lot.number} is released.`),
  ).toBeVisible();
  await expect(page.getByRole('form', { name: 'Raise nonconformance' })).toHaveCount(0);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  await archiveViaApi(manager, lot.productId);
  await managerContext.close();
});
