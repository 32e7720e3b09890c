import { expect, test } from '@playwright/test';
import {
  archiveViaApi,
  createProductViaApi,
  demo,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

test('a manager fills in a passport, saves versions, sets fields public or restricted, opens an old one and a lot passport', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.acmeManager);
  const name = unique('Trail shoe');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('SHOE').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname.startsWith('/api/passports'))
      puts.push(request.url());
  });
  try {
    await page.goto('/DPP');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Digital product passports' }),
    ).toBeVisible();
    await expect(page.getByRole('meter', { name: `Completeness of ${name}` })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    await page.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/DPP/${product.id}$`));
    await expect(
      page.getByRole('status').filter({ hasText: 'No version saved yet.' }),
    ).toBeVisible();

    const form = page.getByRole('form', { name: 'Passport' });
    const importer = form.getByRole('region', { name: 'Importer' });
    const eori = importer.getByRole('textbox', { name: /EORI number/ });
    await importer.getByRole('textbox', { name: 'Name', exact: true }).fill('<b>Imports</b> & Co');
    await eori.fill('de123');
    await form.getByRole('button', { name: 'Publish version 1' }).click();
    await expect(importer.getByText(/2-letter country code/)).toBeVisible();
    expect(puts).toEqual([]);

    await eori.fill('DE123456789');
    await importer.getByRole('checkbox', { name: 'Public by default (Importer)' }).check();
    const substances = form.getByRole('region', { name: 'Substances of concern' });
    await substances.getByRole('button', { name: 'Add' }).click();
    await substances.getByLabel('Substance', { exact: true }).fill('Lead');
    await substances.getByLabel('CAS number', { exact: true }).fill('7439-92-1');
    await form.getByRole('button', { name: 'Publish version 1' }).click();
    await expect(page.getByText('Version 1 published.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Current version 1' })).toBeVisible();
    await expect(importer.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(
      '<b>Imports</b> & Co',
    );

    await form
      .getByRole('region', { name: 'Repair' })
      .getByRole('textbox', { name: 'Repair instructions' })
      .fill('Resole it.');
    await form.getByRole('button', { name: 'Publish version 2' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Current version 2' })).toBeVisible();
    expect(puts).toHaveLength(2);

    await page.getByRole('button', { name: 'View version 1' }).click();
    const old = page.getByRole('region', { name: 'Version 1 (read-only)' });
    await expect(old.getByText('<b>Imports</b> & Co')).toBeVisible();
    await expect(old.getByText('Resole it.')).toHaveCount(0);
    await expect(old.getByRole('textbox')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    // Each field public or restricted on its own: the importer restricted but
    // its EORI number public, the repair section public but its instructions
    // restricted. The public passport shows exactly the public fields.
    await importer.getByRole('checkbox', { name: 'Public by default (Importer)' }).uncheck();
    const eoriSwitch = importer.getByRole('checkbox', { name: 'Public (Importer: EORI number)' });
    await expect(eoriSwitch).not.toBeChecked();
    await eoriSwitch.check();
    const repair = form.getByRole('region', { name: 'Repair' });
    await repair.getByRole('checkbox', { name: 'Public by default (Repair)' }).check();
    await repair
      .getByRole('textbox', { name: 'Spare parts availability' })
      .fill('Soles for 5 years');
    await repair.getByRole('checkbox', { name: 'Public (Repair: Repair instructions)' }).uncheck();
    await form.getByRole('button', { name: 'Publish version 3' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Current version 3' })).toBeVisible();
    await expect(eoriSwitch).toBeChecked();
    await expect(
      importer.getByRole('checkbox', { name: 'Public (Importer: Name)' }),
    ).not.toBeChecked();
    // The passport names the product: any serial of its GTIN leads to it.
    const dpp = `/01/${product.gtin}/21/ANY1?linkType=gs1:dpp`;
    const answer = await page.request.get(dpp, { headers: { accept: 'application/json' } });
    expect(answer.status()).toBe(200);
    const published = (await answer.json()) as { sections: Record<string, unknown> };
    expect(published.sections.importer).toEqual({ eori: 'DE123456789' });
    expect(published.sections.repair).toEqual({ spare_parts_availability: 'Soles for 5 years' });
    const passportPage = await page.context().newPage();
    try {
      await passportPage.goto(dpp);
      await expect(passportPage.getByText('DE123456789')).toBeVisible();
      await expect(passportPage.getByText('Soles for 5 years')).toBeVisible();
      await expect(passportPage.getByText('Imports')).toHaveCount(0);
      await expect(passportPage.getByText('Resole it.')).toHaveCount(0);
    } finally {
      await passportPage.close();
    }

    // A lot without a passport of its own shows the product's; saving makes its own.
    await page.getByRole('textbox', { name: /^Lot/ }).fill('L-42');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page).toHaveURL(/\?lot=L-42$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Lot L-42 has no passport' }),
    ).toBeVisible();
    await form.getByRole('button', { name: 'Publish version 1' }).click();
    await expect(page.getByText('Version 1 published.')).toBeVisible();

    await page.goto('/DPP');
    await expect(page.getByRole('link', { name: /L-42/ })).toBeVisible();
  } finally {
    await archiveViaApi(page, product.id);
  }
});

test('at phone width (390 px) the passport list and editor fit', async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  const name = unique('Phone shoe');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('PH').toUpperCase(),
    gtin: uniqueGtin(),
  });
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/DPP');
    await expect(page.getByRole('link', { name })).toBeVisible();
    await page.getByRole('link', { name }).click();
    const save = page.getByRole('button', { name: 'Publish version 1' });
    await save.scrollIntoViewIfNeeded();
    const box = (await save.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await save.click();
    await expect(page.getByText('Version 1 published.')).toBeVisible();
  } finally {
    await archiveViaApi(page, product.id);
  }
});

test('workers do not open /DPP', async ({ page }) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/DPP');
  await expect(page).toHaveURL(/\/unauthorized$/);
});
