import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  A4_3X8_DESIGN,
  archiveViaApi,
  createProductViaApi,
  createTemplateViaApi,
  csrfToken,
  deleteTemplateViaApi,
  demo,
  generateCodesViaApi,
  screenshot,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/** A lot number no other run uses (at most 20 characters of GS1's set). */
function uniqueLot(): string {
  return `LBL-${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
}

/** A product with `quantity` codes of a new lot, generated through the API (as the signed-in admin). */
async function codedProduct(page: Page, quantity: number) {
  const name = unique('Labelled tea');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('LBL').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const lot = uniqueLot();
  const codeJobId = await generateCodesViaApi(page, {
    product_id: product.id,
    quantity,
    lot: { number: lot, expires_on: '2028-06-30' },
  });
  return { ...product, name, lot, codeJobId };
}

function previewImage(page: Page): Locator {
  return page.getByRole('img', { name: /^Preview of the label/ });
}

/** Waits until the preview shows a decoded image whose alt text matches `alt`; returns its natural width. */
async function previewLoaded(page: Page, alt: RegExp): Promise<number> {
  const image = previewImage(page);
  await expect(image).toHaveAccessibleName(alt, { timeout: 15_000 });
  await expect(page.locator('.label-preview')).toHaveAttribute('aria-busy', 'false');
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

/** The value of the option of `select` whose text contains `text`. */
async function optionValue(select: Locator, text: string): Promise<string> {
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value');
  if (!value) throw new Error(`no option with "${text}"`);
  return value;
}

/**
 * Records, in the page, each state the progress bar of the print job with
 * `templateName` shows (its value and maximum, `none` when there is none),
 * so the test can check how the bar moved without depending on when it looked.
 */
async function recordProgress(page: Page, templateName: string) {
  await page.evaluate((name) => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    const record = () => {
      const row = Array.from(
        document.querySelectorAll('table[aria-label="Print jobs"] tbody tr'),
      ).find((tr) => tr.textContent?.includes(name));
      const bar = row?.querySelector('[role="progressbar"]');
      const state = bar
        ? `${bar.getAttribute('aria-valuenow')}/${bar.getAttribute('aria-valuemax')}`
        : 'none';
      if (seen[seen.length - 1] !== state) seen.push(state);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
    record();
  }, templateName);
}

async function progressSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}

async function downloadedBytes(
  page: Page,
  link: Locator,
): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

test('an admin designs a template with its live preview, prints a code job as PDF, downloads it and reprints it', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  // The preview is an image the page makes: it must pass the Content-Security-Policy.
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/content security policy|refused to/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await signIn(page, demo.acmeAdmin);
  const product = await codedProduct(page, 30);
  const templateName = unique('Shelf label');
  let templateId: string | null = null;
  try {
    await page.goto('/print/lables');
    await expect(page.getByRole('heading', { name: 'Label designs', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'New template' });

    // The default design, drawn by the server with a sample code: 70 mm at 8 dots per mm.
    expect(await previewLoaded(page, /70 × 37 mm, QR code, with a sample code$/)).toBe(560);

    // A sheet preset fills in its label size; the preview follows, with the code job's first code.
    await form.getByLabel('Name', { exact: true }).fill(templateName);
    await form.getByLabel('Sheet').selectOption('letter_5163');
    await expect(form.getByLabel('Width (mm)')).toHaveValue('101.6');
    await expect(form.getByLabel('Height (mm)')).toHaveValue('50.8');
    const showWith = page.getByLabel('Show the label with');
    await showWith.selectOption(await optionValue(showWith, product.name));
    const width = await previewLoaded(
      page,
      new RegExp(
        `101\\.6 × 50\\.8 mm, QR code, with the first code of ${product.name}, lot ${product.lot} · 30 codes$`,
      ),
    );
    expect(width).toBeGreaterThanOrEqual(812);

    // A size that is not the sheet's: the renderer's reason instead of the image.
    await form.getByLabel('Width (mm)').fill('90');
    await expect(page.locator('.label-preview').getByRole('alert')).toContainText(
      'The design is 90 × 50.8 mm but the sheet',
    );
    await expect(previewImage(page)).toHaveCount(0);
    await form.getByLabel('Width (mm)').fill('101.6');
    await previewLoaded(page, /101\.6 × 50\.8 mm/);

    // Save it.
    await form.getByRole('button', { name: 'Save template' }).click();
    await expect(page.getByText(`Template “${templateName}” saved.`)).toBeVisible();
    const row = page
      .getByRole('table', { name: 'Label templates' })
      .getByRole('row')
      .filter({ hasText: templateName });
    await expect(row).toContainText('101.6 × 50.8 mm');
    await expect(row).toContainText('Letter, Avery 5163');
    await expect(page.getByRole('form', { name: `Edit template ${templateName}` })).toBeVisible();
    const templates = (await (await page.request.get('/api/label-templates')).json()) as {
      templates: { id: string; name: string }[];
    };
    templateId = templates.templates.find((t) => t.name === templateName)!.id;

    await page.waitForLoadState('networkidle');
    await previewLoaded(page, /101\.6 × 50\.8 mm/);
    await screenshot(page, testInfo, 'labels-designer');
    expect(await seriousViolations(page)).toEqual([]);

    // Print it.
    await page.getByRole('link', { name: 'Print labels' }).click();
    await expect(page).toHaveURL(/\/printer\/?$/);
    await expect(page.getByRole('heading', { name: 'Print jobs', level: 1 })).toBeVisible();
    const printForm = page.getByRole('form', { name: 'New print job' });
    await printForm.getByLabel('Template').selectOption(templateId);
    await printForm.getByLabel('Code job').selectOption(product.codeJobId);
    await expect(printForm.getByRole('radio', { name: 'PDF' })).toBeChecked();
    await recordProgress(page, templateName);
    await printForm.getByRole('button', { name: 'Start printing' }).click();
    await expect(page.getByText('Print job started: 30 labels to print.')).toBeVisible();

    // Other tests print at the same time: this test's rows are those of its template.
    const ours = page
      .getByRole('table', { name: 'Print jobs' })
      .getByRole('row')
      .filter({ hasText: templateName });
    await expect(ours).toHaveCount(1);
    const first = ours.first();
    await expect(first).toContainText(product.name);
    await expect(first).toContainText(`lot ${product.lot} · 30 codes`);
    await expect(first.getByText('Done')).toBeVisible({ timeout: 60_000 });
    await expect(first).toContainText('30 labels');
    await expect(first.getByRole('progressbar')).toHaveCount(0);
    const seen = await progressSeen(page);
    testInfo.annotations.push({ type: 'progress seen', description: seen.join(' → ') });
    // It appeared at once with its bar at 0 of 30, and the bar left when it was done.
    expect(seen.slice(0, 2)).toEqual(['none', '0/30']);
    expect(seen[seen.length - 1]).toBe('none');

    // Its file: a PDF.
    const pdf = await downloadedBytes(page, first.getByRole('link', { name: /^Download PDF:/ }));
    expect(pdf.name).toMatch(/^labels-[0-9a-f-]{36}\.pdf$/);
    expect(pdf.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');

    // The table fits the page: nothing (no button) scrolls out of sight.
    expect(
      await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
    ).toBe(0);
    await page.waitForLoadState('networkidle');
    await screenshot(page, testInfo, 'printer');
    expect(await seriousViolations(page)).toEqual([]);

    // A reprint: a new job with the same design, at the top, done in its turn.
    await first.getByRole('button', { name: /^Reprint:/ }).click();
    await expect(page.getByText('Reprint started: 30 labels to print.')).toBeVisible();
    await expect(ours).toHaveCount(2);
    // Newest first: the reprint above the job it reprints.
    const reprint = ours.first();
    await expect(reprint).toContainText('Reprint');
    await expect(ours.last().getByText('Done')).toBeVisible();
    await expect(reprint.getByText('Done')).toBeVisible({ timeout: 60_000 });
    const again = await downloadedBytes(
      page,
      reprint.getByRole('link', { name: /^Download PDF:/ }),
    );
    expect(again.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(cspViolations).toEqual([]);
  } finally {
    if (templateId) await deleteTemplateViaApi(page, templateId).catch(() => undefined);
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test("a pharmaceutical client's admin prints a batch's labels; its employees have no printing", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, demo.clientBAdmin);
  const product = await codedProduct(page, 5);
  const templateName = unique('Carton label');
  const templateId = await createTemplateViaApi(page, templateName, {
    ...A4_3X8_DESIGN,
    symbology: 'datamatrix',
  });
  try {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Print jobs', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Print jobs', level: 1 })).toBeVisible();
    const printForm = page.getByRole('form', { name: 'New print job' });
    await printForm.getByLabel('Template').selectOption(templateId);
    await printForm.getByLabel('Code job').selectOption(product.codeJobId);
    await printForm.getByRole('radio', { name: /ZPL/ }).check();
    await printForm.getByRole('button', { name: 'Start printing' }).click();
    await expect(page.getByText('Print job started: 5 labels to print.')).toBeVisible();
    const ours = page
      .getByRole('table', { name: 'Print jobs' })
      .getByRole('row')
      .filter({ hasText: templateName });
    await expect(ours).toContainText(`lot ${product.lot} · 5 codes`);
    await expect(ours.getByText('Done')).toBeVisible({ timeout: 60_000 });
    const zpl = await downloadedBytes(page, ours.getByRole('link', { name: /^Download ZPL:/ }));
    const text = zpl.bytes.toString('utf8');
    expect(text.match(/\^XA/g)).toHaveLength(5);
    // The batch's lot is in every label's GS1 data.
    expect(text.match(new RegExp(`10${product.lot}`, 'g'))).toHaveLength(5);
    await ours.getByRole('button', { name: /^Reprint:/ }).click();
    await expect(page.getByText('Reprint started: 5 labels to print.')).toBeVisible();
    await expect(ours).toHaveCount(2);

    // Templates are designed on /print/lables, which the sidebar offers too.
    await nav.getByRole('link', { name: 'Label designs' }).click();
    await expect(
      page
        .getByRole('table', { name: 'Label templates' })
        .getByRole('row')
        .filter({ hasText: templateName }),
    ).toBeVisible();
  } finally {
    await deleteTemplateViaApi(page, templateId).catch(() => undefined);
    await archiveViaApi(page, product.id).catch(() => undefined);
  }

  // Client employees: neither page, and the server refuses the calls.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, demo.clientBEmployee);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Client B dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Print jobs', exact: true })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Label designs' })).toHaveCount(0);
  await page.goto('/printer');
  await expect(page).toHaveURL(/\/unauthorized$/);
  expect((await page.request.get('/api/print-jobs')).status()).toBe(403);
  expect((await page.request.get('/api/label-templates')).status()).toBe(403);
});

test('a worker designs labels on /print/lables but is sent away from /printer', async ({
  page,
}) => {
  await signIn(page, demo.acmeWorker);
  await page.goto('/print/lables');
  await expect(page.getByRole('heading', { name: 'Label designs', level: 1 })).toBeVisible();
  await expect(page.getByRole('form', { name: 'New template' })).toBeVisible();
  await previewLoaded(page, /with a sample code$/);
  await expect(page.getByRole('link', { name: 'Print labels' })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Label designs' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Print jobs', exact: true })).toHaveCount(0);

  await page.goto('/printer');
  await expect(page).toHaveURL(/\/unauthorized$/);
  // The server refuses what is hidden.
  expect((await page.request.get('/api/print-jobs')).status()).toBe(403);
  const refused = await page.request.post('/api/print-jobs', {
    data: {
      template_id: '00000000-0000-0000-0000-000000000000',
      code_job_id: '00000000-0000-0000-0000-000000000000',
      format: 'pdf',
    },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(refused.status()).toBe(403);
});

test('at phone width (390 px) both pages work: the preview under the form, jobs as cards', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.acmeAdmin);
  const product = await codedProduct(page, 24);
  const templateName = unique('Phone label');
  const templateId = await createTemplateViaApi(page, templateName);
  try {
    const sideways = () =>
      page.evaluate(() => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        tables: Array.from(document.querySelectorAll('.table-wrap')).map(
          (wrap) => wrap.scrollWidth - wrap.clientWidth,
        ),
      }));
    const within390 = async (locator: Locator) => {
      await locator.scrollIntoViewIfNeeded();
      await expect(locator).toBeInViewport();
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    };

    await page.goto('/print/lables');
    const form = page.getByRole('form', { name: 'New template' });
    await previewLoaded(page, /with a sample code$/);
    // Stacked: the preview below the form, both within the screen.
    const formBox = (await form.boundingBox())!;
    const previewBox = (await page.locator('.label-preview').boundingBox())!;
    expect(previewBox.y).toBeGreaterThanOrEqual(formBox.y + formBox.height);
    await within390(previewImage(page));
    await within390(form.getByRole('button', { name: 'Save template' }));
    await within390(
      page.getByRole('table', { name: 'Label templates' }).getByRole('button', {
        name: `Edit ${templateName}`,
      }),
    );
    expect(await sideways()).toEqual({ page: 0, tables: [0] });
    await screenshot(page, testInfo, 'labels-designer-phone');

    await page.goto('/printer/');
    const printForm = page.getByRole('form', { name: 'New print job' });
    await printForm.getByLabel('Template').selectOption(templateId);
    await printForm.getByLabel('Code job').selectOption(product.codeJobId);
    await printForm.getByRole('radio', { name: 'ZPL' }).check();
    await within390(printForm.getByRole('button', { name: 'Start printing' }));
    await printForm.getByRole('button', { name: 'Start printing' }).click();
    await expect(page.getByText('Print job started: 24 labels to print.')).toBeVisible();
    const first = page
      .getByRole('table', { name: 'Print jobs' })
      .getByRole('row')
      .filter({ hasText: templateName });
    await expect(first.getByText('Done')).toBeVisible({ timeout: 60_000 });
    await within390(first.getByRole('link', { name: /^Download ZPL:/ }));
    await within390(first.getByRole('button', { name: /^Reprint:/ }));
    const sizes = await sideways();
    expect(sizes).toEqual({ page: 0, tables: sizes.tables.map(() => 0) });
    await screenshot(page, testInfo, 'printer-phone');
    const zpl = await downloadedBytes(page, first.getByRole('link', { name: /^Download ZPL:/ }));
    expect(zpl.name).toMatch(/^labels-[0-9a-f-]{36}\.zpl$/);
    expect(zpl.bytes.toString('utf8')).toMatch(/^\^XA/);
  } finally {
    await deleteTemplateViaApi(page, templateId).catch(() => undefined);
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});

test('at 1280 px the print jobs table fits: each row’s download and reprint are on screen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, demo.acmeAdmin);
  const product = await codedProduct(page, 6);
  // A long name without spaces, as files are named: it wraps, the buttons stay.
  const templateName = `Round_tin_label_60mm_for_the_autumn_tea_range_${Date.now().toString(36)}_v2`;
  const templateId = await createTemplateViaApi(page, templateName);
  try {
    await page.goto('/printer/');
    const printForm = page.getByRole('form', { name: 'New print job' });
    await printForm.getByLabel('Template').selectOption(templateId);
    await printForm.getByLabel('Code job').selectOption(product.codeJobId);
    await printForm.getByRole('button', { name: 'Start printing' }).click();
    const row = page
      .getByRole('table', { name: 'Print jobs' })
      .getByRole('row')
      .filter({ hasText: templateName });
    await expect(row.getByText('Done')).toBeVisible({ timeout: 60_000 });
    const wrap = page
      .locator('.table-wrap')
      .filter({ has: page.getByRole('table', { name: 'Print jobs' }) });
    const sideways = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways, 'the table scrolls sideways by this many pixels').toBe(0);
    const page_ = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(page_, 'the page scrolls sideways by this many pixels').toBe(0);
    const box = (await wrap.boundingBox())!;
    for (const control of [
      row.getByRole('link', { name: /^Download PDF:/ }),
      row.getByRole('button', { name: /^Reprint:/ }),
    ]) {
      await control.scrollIntoViewIfNeeded();
      await expect(control).toBeInViewport({ ratio: 1 });
      const b = (await control.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
    }
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await deleteTemplateViaApi(page, templateId).catch(() => undefined);
    await archiveViaApi(page, product.id).catch(() => undefined);
  }
});
