import { expect, test, type Page } from '@playwright/test';
import { demo, seriousViolations, signIn } from './helpers';

/** A valid CIN no other run uses (a random registration number). */
function uniqueCin(): string {
  const number = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
  return `U24230MH2020PTC${number}`;
}

function companySelect(page: Page) {
  return page.getByRole('combobox', { name: 'Company (CIN)' });
}

test('client A admin: chooses a company by CIN, sees its overview, adds a company', async ({
  page,
}) => {
  await signIn(page, demo.clientAAdmin);
  await page.goto('/clientA/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Client A dashboard' })).toBeVisible();

  // The demo's two companies.
  const select = companySelect(page);
  await expect(select.getByRole('option', { name: /^L24230MH1995PLC093214 — / })).toHaveCount(1);
  await select.selectOption({
    label: 'U24239GJ2008PTC052871 — Client A Formulations Private Limited',
  });
  await expect(
    page.getByRole('region', { name: 'Client A Formulations Private Limited' }),
  ).toContainText('Changodar, Ahmedabad');
  await expect(page.getByText('Codes generated')).toBeVisible();
  await expect(page.getByRole('table', { name: /^Products of / })).toContainText(
    'No products belong to this company yet',
  );
  await expect(page.getByRole('table', { name: /^Batches of / })).toContainText('No batches yet');
  expect(await seriousViolations(page)).toEqual([]);

  // A wrong part is named before anything is sent.
  const form = page.getByRole('form', { name: 'Add company' });
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/companies')
      posts.push(r.url());
  });
  await form.getByLabel('CIN').fill('U24230XX2020PTC000001');
  await form.getByLabel('Registered name').fill('Client A Exports Private Limited');
  await form.getByLabel('Registered address').fill('Plot 3, Sector 5, Salt Lake, Kolkata 700091');
  await form.getByRole('button', { name: 'Add company' }).click();
  await expect(form.getByText(/CIN state code \(characters 7 and 8\)/)).toBeVisible();
  expect(posts).toEqual([]);

  const cin = uniqueCin();
  await form.getByLabel('CIN').fill(cin.toLowerCase());
  await form.getByRole('button', { name: 'Add company' }).click();
  await expect(page.getByText(`Company ${cin} added`)).toBeVisible();
  await expect(select).toHaveValue(/.+/);
  await expect(select.locator('option:checked')).toHaveText(
    `${cin} — Client A Exports Private Limited`,
  );

  // The same CIN again: the server's 409, as it says it.
  await form.getByLabel('CIN').fill(cin);
  await form.getByLabel('Registered name').fill('Again');
  await form.getByLabel('Registered address').fill('Pune');
  await form.getByRole('button', { name: 'Add company' }).click();
  await expect(form.getByText(`A company with the CIN ${cin} is already registered`)).toBeVisible();
});

test('client A employee: reads the companies, adds none; at phone width too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.clientAEmployee);
  await page.goto('/clientA/dashboard');
  await companySelect(page).selectOption({
    label: 'L24230MH1995PLC093214 — Client A Laboratories Limited',
  });
  await expect(page.getByRole('region', { name: 'Client A Laboratories Limited' })).toBeVisible();
  await expect(page.getByText('Codes scanned')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Add company' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});

test('client B and brands do not reach the CIN selector', async ({ browser }) => {
  for (const email of [demo.clientBAdmin, demo.acmeAdmin]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    await page.goto('/clientA/dashboard');
    await expect(page).toHaveURL(/\/unauthorized$/);
    const answer = await page.request.get('/api/companies');
    expect(answer.status()).toBe(403);
    await context.close();
  }
});
