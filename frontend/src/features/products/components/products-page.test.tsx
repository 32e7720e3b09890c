import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi, networkDown, type RecordedCall } from '@/testing/mock-api';
import {
  adminSession,
  brandModules,
  moduleCatalogue,
  renderPage,
  signInAs,
} from '@/testing/render';
import { useAppStore } from '@/stores/app-store';
import { product } from '../test-data';
import { ProductsPage } from './products-page';

const workerSession: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, id: 'u-w', role: 'worker', email: 'worker@acme.test' },
  allowedPaths: ['/', '/ui/table', '/products', '/profile', '/products/Add_product'],
  modules: brandModules,
  moduleCatalogue,
};

const oat = product({
  id: 'p-1',
  product_name: 'Oat milk',
  skuid: 'OAT-1',
  gtin: '04006381333931',
  category: 'Drinks',
  created_at: '2025-03-01T00:00:00Z',
});
const almond = product({
  id: 'p-2',
  product_name: 'Almond butter',
  skuid: 'ALM-2',
  gtin: '00036000291452',
  category: 'Spreads',
  created_at: '2025-01-01T00:00:00Z',
});
const tea = product({
  id: 'p-3',
  product_name: 'Barley tea',
  skuid: 'BAR-3',
  gtin: '10614141000415',
  category: 'Drinks',
  created_at: '2025-02-01T00:00:00Z',
});

type Handlers = Parameters<typeof mockApi>[0];

function setup(handlers: Handlers = {}, session: SessionInfo = adminSession) {
  signInAs(session);
  const api = mockApi({
    'GET /api/product-handler': () =>
      json(200, { products: [oat, almond, tea], max_products: 200, added_products: 3 }),
    ...handlers,
  });
  return { ...api, ...renderPage(<ProductsPage />, { route: '/products' }) };
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.querySelector('.table__value')?.textContent);

const changes = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'GET');

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Products page', () => {
  it('lists the products by name with SKU id, GTIN as stored, category and the usage line', async () => {
    const { calls } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
    await screen.findByText('Oat milk');
    expect(names()).toEqual(['Almond butter', 'Barley tea', 'Oat milk']);
    const row = within(screen.getAllByRole('row')[3]!);
    expect(row.getByText('OAT-1')).toBeInTheDocument();
    expect(row.getByText('04006381333931')).toBeInTheDocument();
    expect(row.getByText('Drinks')).toBeInTheDocument();
    expect(row.getByRole('link', { name: 'Oat milk' })).toHaveAttribute('href', '/products/p-1');
    expect(screen.getByRole('status')).toHaveTextContent('3 of 200 products');
    expect(calls[0]!.url.searchParams.get('action')).toBe('allproducts');
    expect(screen.getByRole('link', { name: 'Add product' })).toHaveAttribute(
      'href',
      '/products/Add_product',
    );
  });

  it('searches name, SKU id and GTIN, filters by category and sorts', async () => {
    const { user } = setup();
    await screen.findByText('Oat milk');
    await user.type(screen.getByLabelText('Search'), 'alm');
    expect(names()).toEqual(['Almond butter']);
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), '10614141');
    expect(names()).toEqual(['Barley tea']);
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'nothing like it');
    expect(screen.getByText('No product matches your search.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Search'));

    await user.selectOptions(screen.getByLabelText('Category'), 'Drinks');
    expect(names()).toEqual(['Barley tea', 'Oat milk']);
    await user.selectOptions(screen.getByLabelText('Sort by'), 'created');
    expect(names()).toEqual(['Oat milk', 'Barley tea']);
    await user.selectOptions(screen.getByLabelText('Category'), '');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'skuid');
    expect(names()).toEqual(['Almond butter', 'Barley tea', 'Oat milk']);
  });

  it('pages ten at a time with at most five page numbers', async () => {
    const many = Array.from({ length: 75 }, (_, i) =>
      product({ id: `m-${i}`, product_name: `Item ${String(i + 1).padStart(2, '0')}` }),
    );
    const { user } = setup({
      'GET /api/product-handler': () =>
        json(200, { products: many, max_products: 100, added_products: 75 }),
    });
    await screen.findByText('Item 01');
    expect(screen.getAllByRole('row')).toHaveLength(11);
    const pager = screen.getByRole('navigation', { name: 'Product pages' });
    const pageNumbers = () =>
      within(pager)
        .getAllByRole('button', { name: /^Page / })
        .map((b) => b.textContent);
    expect(pageNumbers()).toEqual(['1', '2', '3', '4', '5']);
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pager).getByRole('button', { name: 'Page 5' }));
    expect(pageNumbers()).toEqual(['3', '4', '5', '6', '7']);
    expect(within(pager).getByRole('button', { name: 'Page 5' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByText('Item 41')).toBeInTheDocument();
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(pageNumbers()).toEqual(['4', '5', '6', '7', '8']);
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getAllByRole('row')).toHaveLength(6);
    // A new search starts at page 1.
    await user.type(screen.getByLabelText('Search'), 'Item');
    expect(screen.getByText('Item 01')).toBeInTheDocument();
  });

  it('applies the spec’s defaults when the numbers are absent', async () => {
    setup({ 'GET /api/product-handler': () => json(200, { products: [oat, almond] }) });
    await screen.findByText('Oat milk');
    expect(screen.getByRole('status')).toHaveTextContent('0 of 2 products');
    expect(screen.getByRole('link', { name: 'Add product' })).toBeInTheDocument();
  });

  it('disables Add product at the limit and says why', async () => {
    setup({
      'GET /api/product-handler': () =>
        json(200, { products: [oat, almond], max_products: 2, added_products: 2 }),
    });
    await screen.findByText('Oat milk');
    const add = screen.getByRole('button', { name: 'Add product' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(/limit of products/);
    expect(screen.queryByRole('link', { name: 'Add product' })).not.toBeInTheDocument();
  });

  it('shows Edit and Archive to an admin; archives after confirmation with a toast', async () => {
    const { user, calls } = setup({
      'DELETE /api/products/p-1': () => json(200, { ...oat, archived_at: '2025-04-01T00:00:00Z' }),
    });
    await screen.findByText('Oat milk');
    expect(screen.getByRole('link', { name: 'Edit Oat milk' })).toHaveAttribute(
      'href',
      '/products/Edit_product/p-1',
    );
    await user.click(screen.getByRole('button', { name: 'Archive Oat milk' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Archive product' });
    expect(dialog).toHaveTextContent('Are you sure you want to archive this product?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(changes(calls)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Archive Oat milk' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Archive' }),
    );
    expect(await screen.findByText('Product archived.')).toBeInTheDocument();
    expect(changes(calls)[0]!.method).toBe('DELETE');
    expect(changes(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(names()).toEqual(['Almond butter', 'Barley tea']);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 200 products');
  });

  it('says so when archiving fails and keeps the row', async () => {
    const { user } = setup({ 'DELETE /api/products/p-1': () => networkDown() });
    await user.click(await screen.findByRole('button', { name: 'Archive Oat milk' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Archive' }),
    );
    expect(
      await screen.findByText('A network error occurred. Please check your connection.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Oat milk')).toBeInTheDocument();
  });

  it('shows a worker no Edit or Archive, but Add product', async () => {
    setup({}, workerSession);
    await screen.findByText('Oat milk');
    expect(screen.queryByTitle('Edit')).not.toBeInTheDocument();
    expect(screen.queryByTitle('Archive')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add product' })).toBeInTheDocument();
  });

  it('says it has no products yet', async () => {
    setup({
      'GET /api/product-handler': () =>
        json(200, { products: [], max_products: 200, added_products: 0 }),
    });
    expect(await screen.findByText(/No products yet/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it.each([
    ['a server error', () => json(500, { error: 'Internal error', code: 'internal' })],
    ['a refusal', () => json(403, { error: 'Not allowed', code: 'forbidden' })],
    ['a network failure', () => networkDown()],
  ])('on %s says ‘Failed to fetch products’ and offers to try again', async (_, respond) => {
    let fail = true;
    const { user } = setup({
      'GET /api/product-handler': () =>
        fail ? respond() : json(200, { products: [oat], max_products: 200, added_products: 1 }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch products');
    expect(useAppStore.getState().auth.csrfToken).not.toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Oat milk')).toBeInTheDocument();
  });

  it.each([
    [
      '400 with error ‘unauthenticated’',
      json(400, { error: 'unauthenticated', code: 'bad_request' }),
    ],
    ['401', json(401, { error: 'Sign in first.', code: 'unauthorized' })],
    ['code unauthenticated', json(401, { error: 'Sign in first.', code: 'unauthenticated' })],
  ])('signs out on %s (spec §8)', async (_, response) => {
    setup({ 'GET /api/product-handler': () => response });
    await waitFor(() => expect(useAppStore.getState().auth.csrfToken).toBeNull());
    expect(useAppStore.getState().auth.user).toBeNull();
  });
});
