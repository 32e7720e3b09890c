import { expect, test } from '@playwright/test';
import {
  createProductViaApi,
  demo,
  newBrand,
  seriousViolations,
  signIn,
  unique,
  uniqueGtin,
} from './helpers';

/**
 * Issue 21, "First run": a new organisation's dashboard says where to start
 * (a checklist from its own data, hidden and shown again per user), greets
 * with the organisation's name, and keeps the pages that do not work yet
 * apart from the working ones.
 */

test('a new brand’s dashboard: its name, a checklist to start with, working tiles only', async ({
  page,
  browser,
}) => {
  const name = `<b>First</b> & Run ${unique('co')}`;
  const admin = await newBrand(browser, name);
  await signIn(page, admin.email, admin.password);
  await page.goto('/');
  // The organisation's name, as text.
  await expect(page.getByText(`Signed in as Admin at ${name}.`)).toBeVisible();

  const checklist = page.getByRole('region', { name: 'Get started' });
  await expect(checklist).toContainText('0 of 6 done');
  const steps = checklist.getByRole('listitem');
  await expect(steps).toHaveText([
    /^Add a product/,
    /^Generate codes/,
    /^Design a label/,
    /^Print labels/,
    /^Scan one code with your phone/,
    /^Publish a passport/,
  ]);
  await expect(checklist.getByRole('link', { name: 'Design a label' })).toHaveAttribute(
    'href',
    '/print/lables',
  );
  expect(await seriousViolations(page)).toEqual([]);

  // The tiles are working pages only; the others are apart in the sidebar.
  const tiles = page.getByRole('region', { name: 'Go to' });
  await expect(tiles.getByRole('link', { name: 'Products' })).toBeVisible();
  await expect(tiles.getByRole('link', { name: 'Print jobs' })).toBeVisible();
  await expect(tiles.getByRole('link', { name: 'Calendar' })).toHaveCount(0);
  await expect(tiles.getByRole('link', { name: 'Icons' })).toHaveCount(0);
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Calendar' })).toHaveCount(0);
  await expect(main.getByRole('link', { name: 'Icons' })).toHaveCount(0);
  const apart = page.getByTestId('nav-unavailable');
  await apart.getByText(/Coming soon or switched off/).click();
  await expect(
    page.getByRole('navigation', { name: 'Not available yet' }).getByRole('link', {
      name: /Calendar/,
    }),
  ).toBeVisible();

  // A step is ticked from the organisation's own data.
  await createProductViaApi(page, {
    product_name: 'First tea',
    skuid: unique('FT').toUpperCase(),
    gtin: uniqueGtin(),
  });
  await page.reload();
  await expect(checklist).toContainText('1 of 6 done');
  await expect(steps.first()).toContainText('(done)');
  await expect(steps.nth(1)).toContainText('(to do)');

  // Hidden, it stays hidden on the next visit; "Show get started" brings it back.
  await checklist.getByRole('button', { name: 'Hide get started' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show get started' })).toBeVisible();
  await expect(checklist).toHaveCount(0);
  await page.getByRole('button', { name: 'Show get started' }).click();
  await expect(checklist).toBeVisible();
});

test('a client’s employee gets the client steps, each link a page they may open', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/') && [401, 403].includes(response.status())) {
      refused.push(`${response.status()} ${response.url()}`);
    }
  });
  await signIn(page, demo.clientBEmployee);
  await page.goto('/');
  await expect(page.getByText('Signed in as Employee at Client B Laboratories.')).toBeVisible();
  const answer = await page.request.get('/api/organisation/get-started');
  expect(answer.status()).toBe(200);
  const { steps } = (await answer.json()) as {
    steps: { key: string; done: boolean; path?: string }[];
  };
  expect(steps.map((s) => s.key)).toEqual([
    'product',
    'codes',
    'print',
    'batch_check',
    'batch_apply',
  ]);
  // Employees add no products and print nothing: no link for those.
  expect(steps.find((s) => s.key === 'product')!.path).toBeUndefined();
  expect(steps.find((s) => s.key === 'print')!.path).toBeUndefined();
  for (const path of steps.flatMap((s) => (s.path ? [s.path] : []))) {
    await page.goto(path);
    await expect(page).not.toHaveURL(/unauthorized|404/);
    await page.waitForLoadState('networkidle').catch(() => undefined);
  }
  expect(refused).toEqual([]);
});

test('the correct spellings /print/labels and /calendar lead to the spec’s routes', async ({
  page,
}) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto('/print/labels');
  await expect(page).toHaveURL(/\/print\/lables$/);
  await expect(page.getByRole('heading', { name: 'Label designs', level: 1 })).toBeVisible();
  await page.goto('/calendar');
  await expect(page).toHaveURL(/\/calender$/);
  await expect(page.getByTestId('not-available')).toBeVisible();
});
