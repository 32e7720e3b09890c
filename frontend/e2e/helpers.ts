import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const DEMO_PASSWORD = 'brandops-demo';

export const demo = {
  acmeAdmin: 'admin@acme.test',
  acmeManager: 'manager@acme.test',
  acmeWorker: 'worker@acme.test',
  globexAdmin: 'admin@globex.test',
  clientAAdmin: 'admin@clienta.test',
  clientAEmployee: 'employee@clienta.test',
  clientBAdmin: 'admin@clientb.test',
  clientBEmployee: 'employee@clientb.test',
  platform: 'platform@brandops.test',
} as const;

/** A name no other test (or earlier run) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Signs in through the login page and waits until the app has left it. */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  path = '/auth/login',
) {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

/** The CSRF token the app keeps in local storage (for API calls made by a test). */
export async function csrfToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const raw = window.localStorage.getItem('root');
    return raw
      ? (JSON.parse(raw) as { state?: { auth?: { csrfToken?: string } } }).state?.auth?.csrfToken
      : null;
  });
  if (!token) throw new Error('not signed in: no CSRF token in local storage');
  return token;
}

/** Removes an account through the API, as the signed-in admin (test clean-up). */
export async function removeUserByEmail(page: Page, email: string) {
  const token = await csrfToken(page);
  const list = await page.request.get('/api/account-info?action=otheraccountinfo');
  const accounts = (await list.json()) as { id: string; email: string }[];
  const account = accounts.find((a) => a.email === email);
  if (!account) return;
  const removed = await page.request.post('/api/client-auth', {
    data: { action: 'removeuser', user_id: account.id },
    headers: { 'x-csrf-token': token },
  });
  expect(removed.ok()).toBe(true);
}

/** Adds an account through the API, as the signed-in admin (test set-up). */
export async function addUserViaApi(
  page: Page,
  user: { name: string; email: string; password: string; role: 'worker' | 'manager' },
) {
  const token = await csrfToken(page);
  const added = await page.request.post('/api/client-auth', {
    data: { action: 'adduser', ...user },
    headers: { 'x-csrf-token': token },
  });
  expect(added.status(), await added.text()).toBe(201);
}

/** Saves a full-page screenshot under test-results/screenshots and attaches it to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = join(
    testInfo.config.projects[0]?.outputDir ?? 'test-results',
    'screenshots',
    `${name}.png`,
  );
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The page's serious and critical axe violations (WCAG 2.1 A and AA), as a readable list. */
export async function seriousViolations(page: Page) {
  // Colours are measured as they end, not half-way through an animation (a
  // toast fading in was once measured against the page behind it).
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, {
      timeout: 5000,
    })
    .catch(() => undefined);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
}

/** The GS1 check digit (the same rule as src/lib/gs1.ts). */
function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A GTIN-13 no other run uses: 12 random digits and their check digit. */
export function uniqueGtin(): string {
  const digits = Array.from({ length: 12 }, (_, i) =>
    i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10),
  ).join('');
  return `${digits}${checkDigit(digits)}`;
}

/** Adds a product through the API as the signed-in user (test set-up); returns it. */
export async function createProductViaApi(
  page: Page,
  product: { product_name: string; skuid: string; gtin: string },
): Promise<{ id: string; gtin: string }> {
  const created = await page.request.post('/api/products', {
    data: product,
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: string; gtin: string };
}

/** Archives a product through the API as the signed-in user (clean-up). */
export async function archiveViaApi(page: Page, id: string) {
  const token = await csrfToken(page);
  await page.request.delete(`/api/products/${id}`, { headers: { 'x-csrf-token': token } });
}

/** Starts a code job through the API as the signed-in user and waits until it is done; returns its id. */
export async function generateCodesViaApi(
  page: Page,
  body: { product_id: string; quantity: number; lot?: { number: string; expires_on?: string } },
): Promise<string> {
  const created = await page.request.post('/api/code-jobs', {
    data: body,
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/code-jobs/${id}`)).json()) as { status: string })
          .status,
      { timeout: 60_000 },
    )
    .toBe('done');
  return id;
}

/** A label design for API set-up: an A4 3 × 8 label (70 × 37 mm) with a QR code and every line. */
export const A4_3X8_DESIGN = {
  width_mm: 70,
  height_mm: 37,
  symbology: 'qr',
  sheet: 'a4_3x8',
  fields: { product_name: true, gtin: true, lot: true, expiry: true, serial: true },
  font_size_pt: 7,
  margin_mm: 2,
} as const;

/** Saves a label template through the API as the signed-in user (test set-up); returns its id. */
export async function createTemplateViaApi(
  page: Page,
  name: string,
  design: object = A4_3X8_DESIGN,
): Promise<string> {
  const created = await page.request.post('/api/label-templates', {
    data: { name, design },
    headers: { 'x-csrf-token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Removes a label template through the API as the signed-in user (clean-up). */
export async function deleteTemplateViaApi(page: Page, id: string) {
  const token = await csrfToken(page);
  await page.request.delete(`/api/label-templates/${id}`, { headers: { 'x-csrf-token': token } });
}

/**
 * A product of this test with `quantity` codes (made as the signed-in user);
 * returns it and its codes (serial and the path of its public link).
 */
export async function productWithCodes(
  page: Page,
  quantity: number,
  lot?: { number: string; expires_on?: string },
) {
  const name = unique('Scanned tea');
  const product = await createProductViaApi(page, {
    product_name: name,
    skuid: unique('SCAN').toUpperCase(),
    gtin: uniqueGtin(),
  });
  const jobId = await generateCodesViaApi(page, {
    product_id: product.id,
    quantity,
    ...(lot ? { lot } : {}),
  });
  const csv = await page.request.get(`/api/code-jobs/${jobId}/codes.csv`);
  expect(csv.status(), await csv.text()).toBe(200);
  const lines = (await csv.text()).trim().split('\n').slice(1);
  const codes = lines.map((line) => {
    const [, serial, , , uri] = line.split(',');
    return { serial: serial!, path: new URL(uri!).pathname };
  });
  expect(codes).toHaveLength(quantity);
  return { ...product, name, codes };
}

/**
 * A new brand organisation of this test, onboarded through the API by the
 * platform admin (in a context of its own); returns its first admin's
 * email and password.
 */
export async function newBrand(browser: Browser, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, demo.platform);
    const clientId = unique('gs').replace(/-/g, '_').slice(0, 30);
    const admin = {
      name: 'First Admin',
      email: `admin@${clientId.replace(/_/g, '-')}.test`,
      password: 'first-run-admin-1',
    };
    const created = await page.request.post('/api/platform/tenants', {
      data: { clientId, name, kind: 'brand', userLimit: 2, admin },
      headers: { 'x-csrf-token': await csrfToken(page) },
    });
    expect(created.status(), await created.text()).toBe(201);
    return admin;
  } finally {
    await context.close();
  }
}
