import { expect, test } from '@playwright/test';
import { archiveViaApi, demo, productWithCodes, seriousViolations, signIn } from './helpers';

/**
 * Client B's dashboard (issue 21): its codes generated, printed and
 * scanned, its batches and its latest batch updates, with the uploader as
 * one part; its own organisation's data only.
 */
test('client B’s dashboard shows its own batches and codes, its latest updates and the uploader', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // Client A's batch, which client B must never see.
  const a = await browser.newContext();
  const aPage = await a.newPage();
  await signIn(aPage, demo.clientAAdmin);
  const lotA = `CA${Date.now() % 1_000_000}`;
  const productA = await productWithCodes(aPage, 2, { number: lotA });

  const b = await browser.newContext();
  const page = await b.newPage();
  await signIn(page, demo.clientBAdmin);
  const lotB = `CB${Date.now() % 1_000_000}`;
  const productB = await productWithCodes(page, 3, { number: lotB });

  for (const who of [demo.clientBAdmin, demo.clientBEmployee]) {
    const context = await browser.newContext();
    const viewer = await context.newPage();
    await signIn(viewer, who);
    await viewer.goto('/clientB/dashboard');
    await expect(
      viewer.getByRole('heading', { level: 1, name: 'Client B dashboard' }),
    ).toBeVisible();
    await expect(viewer.getByText('Codes generated')).toBeVisible();
    await expect(viewer.getByText('Codes printed')).toBeVisible();
    await expect(viewer.getByText('Codes scanned')).toBeVisible();
    const batches = viewer.getByRole('table', { name: 'Your batches' });
    await expect(batches).toContainText(lotB);
    await expect(batches).toContainText(productB.name);
    await expect(viewer.getByRole('main')).not.toContainText(lotA);
    await expect(viewer.getByRole('table', { name: 'Batch update history' })).toBeVisible();
    await expect(viewer.getByLabel('Batch file (CSV or XLSX)')).toBeVisible();
    expect(await seriousViolations(viewer)).toEqual([]);
    await viewer.setViewportSize({ width: 390, height: 844 });
    const sideways = await viewer.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBe(0);
    expect(await seriousViolations(viewer)).toEqual([]);
    await context.close();
  }
  await archiveViaApi(page, productB.id);
  await archiveViaApi(aPage, productA.id);
  await a.close();
  await b.close();
});
