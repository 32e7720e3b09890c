import { act, fireEvent, screen, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { json } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { mockRawApi, product, type RawCall } from '../test-data';
import { ProductsPage } from './products-page';

const workerSession: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, id: 'u-w', role: 'worker', email: 'worker@acme.test' },
};

const CSV = 'product_name,skuid,gtin\nOat milk,OAT-1,4006381333931\nTea,TEA-1,96385074\n';

function setup(
  handlers: Record<string, (call: RawCall) => Response> = {},
  session: SessionInfo = adminSession,
) {
  signInAs(session);
  const api = mockRawApi({
    'GET /api/product-handler': () =>
      json(200, { products: [product({ id: 'p-1' })], max_products: 200, added_products: 1 }),
    ...handlers,
  });
  return { ...api, ...renderPage(<ProductsPage />, { route: '/products' }) };
}

async function chooseCsv(user: ReturnType<typeof setup>['user'], text = CSV) {
  await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
  fireEvent.change(screen.getByLabelText('CSV file'), {
    target: { files: [new File([text], 'products.csv', { type: 'text/csv' })] },
  });
}

const imports = (calls: RawCall[]) =>
  calls.filter((c) => c.url.pathname === '/api/products/import');

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Products CSV', () => {
  it('offers Export CSV to every role and Import CSV only to editors', async () => {
    setup({}, workerSession);
    const exportLink = await screen.findByRole('link', { name: 'Export CSV' });
    expect(exportLink).toHaveAttribute('href', '/api/products/export.csv');
    expect(exportLink).toHaveAttribute('download');
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
  });

  it('checks the file first, then imports it, says how many and reloads the list', async () => {
    const { calls, user } = setup({
      'POST /api/products/import': (call) =>
        call.url.searchParams.get('dry_run') === 'true'
          ? json(200, { dry_run: true, rows: 2, created: 0, errors: [] })
          : json(200, { dry_run: false, rows: 2, created: 2, errors: [] }),
    });
    await chooseCsv(user);
    expect(await screen.findByText('2 products ready to import.')).toBeInTheDocument();
    const [dryRun] = imports(calls);
    expect(dryRun!.url.searchParams.get('dry_run')).toBe('true');
    expect(dryRun!.headers.get('content-type')).toBe('text/csv');
    expect(dryRun!.text).toBe(CSV);

    const listLoads = calls.filter((c) => c.method === 'GET').length;
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('2 products imported.')).toBeInTheDocument();
    expect(imports(calls)[1]!.url.searchParams.get('dry_run')).toBe('false');
    expect(calls.filter((c) => c.method === 'GET').length).toBe(listLoads + 1);
  });

  it('lists the problems of a dry run by row and column, and offers no Import', async () => {
    const { user } = setup({
      'POST /api/products/import': () =>
        json(200, {
          dry_run: true,
          rows: 2,
          created: 0,
          errors: [
            { row: 3, column: 'gtin', reason: 'The check digit is wrong.' },
            { row: 0, column: '', reason: 'The file would pass your limit of products.' },
          ],
        }),
    });
    await chooseCsv(user);
    const table = await screen.findByRole('table', { name: 'Import problems' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('3');
    expect(rows[0]).toHaveTextContent('gtin');
    expect(rows[0]).toHaveTextContent('The check digit is wrong.');
    expect(rows[1]).toHaveTextContent('File');
    expect(screen.getByText(/2 problems in 2 rows/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
  });

  it('shows a refusal of the rows (422) the same way, and a 400 as worded', async () => {
    let dry = true;
    const { user } = setup({
      'POST /api/products/import': () =>
        dry
          ? json(200, { dry_run: true, rows: 2, created: 0, errors: [] })
          : json(422, {
              error: 'Some rows are invalid: nothing was imported.',
              code: 'invalid_rows',
              rows: 2,
              errors: [{ row: 2, column: 'skuid', reason: 'Another product has this skuid.' }],
            }),
    });
    await chooseCsv(user);
    await screen.findByText('2 products ready to import.');
    dry = false;
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const table = await screen.findByRole('table', { name: 'Import problems' });
    expect(table).toHaveTextContent('Another product has this skuid.');
    expect(screen.getByText(/Nothing was imported: 1 problem in 2 rows/)).toBeInTheDocument();
  });

  it('shows why a file cannot be read', async () => {
    const { user } = setup({
      'POST /api/products/import': () =>
        json(400, { error: 'The file is not UTF-8.', code: 'invalid_input' }),
    });
    await chooseCsv(user);
    expect(await screen.findByText('The file is not UTF-8.')).toBeInTheDocument();
  });
});
