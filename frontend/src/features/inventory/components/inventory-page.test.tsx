import { screen, waitFor, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { renderPage } from '@/testing/render';
import type { Location, Move, Reservation, StockRow, ValuationRow } from '../api/inventory-api';
import { InventoryPage } from './inventory-page';
import { ValuationPage } from './valuation-page';

const wh: Location = {
  id: 'l-wh',
  code: 'WH1',
  name: 'Main warehouse',
  kind: 'warehouse',
  path: 'WH1',
  created_at: '2026-11-01T08:00:00Z',
};
const bin: Location = {
  ...wh,
  id: 'l-bin',
  code: 'A-01',
  name: 'Bin A-01',
  kind: 'bin',
  parent_id: 'l-wh',
  path: 'WH1 / A-01',
};

const stockRow: StockRow = {
  product_id: 'p-tea',
  product_name: 'Green tea',
  location_id: 'l-bin',
  location_code: 'A-01',
  lot_id: 'lot-1',
  lot_number: 'TEA-1',
  expires_on: '2000-01-01',
  expired: true,
  lot_status: 'held',
  on_hand: '12.5',
  reserved: '0',
  available: '12.5',
};

function move(n: number): Move {
  return {
    id: `m-${n}`,
    product_id: 'p-tea',
    lot_id: 'lot-1',
    lot_number: 'TEA-1',
    quantity: String(n),
    to_location_id: 'l-wh',
    reason: 'receipt',
    unit_cost: '2.50',
    currency: 'EUR',
    created_at: '2026-11-20T10:00:00Z',
  };
}

function inventoryApi(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/product-handler': () =>
      json(200, {
        products: [
          { id: 'p-tea', product_name: 'Green tea', skuid: 'TEA', gtin: '00000000000017' },
        ],
        max_products: 10,
        added_products: 1,
      }),
    'GET /api/locations': () => json(200, { locations: [bin, wh] }),
    'GET /api/stock': () => json(200, { stock: [stockRow], more: false }),
    'GET /api/stock-moves': (call) =>
      call.url.searchParams.get('cursor') === '100'
        ? json(200, { moves: [move(1)] })
        : json(200, { moves: [move(3), move(2)], next_cursor: '100' }),
    'GET /api/stock-reservations': () => json(200, { reservations: [] }),
    'GET /api/replenishment': () => json(200, { lines: [] }),
    'GET /api/reorder-rules': () => json(200, { rules: [] }),
    ...extra,
  });
}

describe('InventoryPage', () => {
  it('shows a worker the stock, the ledger and the forms they may use, not the admins’ ones', async () => {
    inventoryApi();
    renderPage(<InventoryPage role="worker" />, { route: '/inventory' });
    const stock = await screen.findByRole(
      'table',
      { name: 'Stock by product, location and lot' },
      { timeout: 15_000 },
    );
    const row = within(stock).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('WH1 / A-01');
    expect(row).toHaveTextContent('Held');
    expect(row).toHaveTextContent(/Expired \d+ days ago/);
    expect(row).toHaveTextContent('12.5');
    expect(screen.getByText('1 lot has expired')).toBeInTheDocument();

    expect(screen.getByRole('form', { name: 'Record a move' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Reserve stock' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a location' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Set a reorder rule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Register a lot' })).not.toBeInTheDocument();
    // The tree: the warehouse before its bin, whatever the order of the answer.
    const tree = screen.getByRole('table', { name: 'Locations, as a tree' });
    const codes = within(tree)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelector('td .table__value')?.textContent);
    expect(codes).toEqual(['WH1', '└ A-01']);
  });

  it('shows admins the forms that set up locations and reorder rules', async () => {
    inventoryApi();
    renderPage(<InventoryPage role="admin" />, { route: '/inventory' });
    expect(await screen.findByRole('form', { name: 'Add a location' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Set a reorder rule' })).toBeInTheDocument();
  });

  it('checks a move before sending it', async () => {
    const { calls } = inventoryApi();
    const { user } = renderPage(<InventoryPage role="worker" />, { route: '/inventory' });
    const form = await screen.findByRole('form', { name: 'Record a move' });
    await user.click(within(form).getByRole('button', { name: 'Record move' }));
    expect(within(form).getByText('Choose the product.')).toBeInTheDocument();
    expect(within(form).getByText('Enter the quantity to move.')).toBeInTheDocument();
    expect(
      within(form).getByText('Enter the unit cost of the stock arriving.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('loads older moves with the server’s cursor', async () => {
    const { calls } = inventoryApi();
    const { user } = renderPage(<InventoryPage role="worker" />, { route: '/inventory' });
    const ledger = await screen.findByRole('table', { name: 'Stock moves, newest first' });
    expect(within(ledger).getAllByRole('row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(ledger).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const pages = calls.filter((c) => c.url.pathname === '/api/stock-moves');
    expect(pages.map((c) => c.url.searchParams.get('cursor'))).toEqual([null, '100']);
  });

  it('says plainly when a reservation finds too little stock, and shows the FEFO lines when it does not', async () => {
    let answer = json(409, {
      error:
        'Not enough stock of Green tea to reserve 50: 12.5 available in released, unexpired lots.',
      code: 'insufficient_stock',
    });
    const reservation: Reservation = {
      id: 'r-1',
      product_id: 'p-tea',
      product_name: 'Green tea',
      quantity: '5',
      reference: 'SO-9',
      status: 'active',
      lines: [
        {
          location_id: 'l-bin',
          lot_id: 'lot-1',
          lot_number: 'TEA-1',
          expires_on: '2030-01-01',
          quantity: '5',
        },
      ],
      created_at: '2026-11-20T10:00:00Z',
    };
    const { calls } = inventoryApi({ 'POST /api/stock-reservations': () => answer });
    const { user } = renderPage(<InventoryPage role="worker" />, { route: '/inventory' });
    const form = await screen.findByRole('form', { name: 'Reserve stock' });
    await user.selectOptions(within(form).getByLabelText('Product to reserve'), 'p-tea');
    await user.type(within(form).getByLabelText('Quantity to reserve'), '50');
    await user.type(within(form).getByLabelText('Reserved for'), 'SO-9');
    await user.click(within(form).getByRole('button', { name: 'Reserve' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Not enough stock.');
    expect(alert).toHaveTextContent('12.5 available');
    expect(alert).toHaveTextContent('Nothing was changed.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      product_id: 'p-tea',
      quantity: '50',
      reference: 'SO-9',
    });

    answer = json(201, reservation);
    await user.clear(within(form).getByLabelText('Quantity to reserve'));
    await user.type(within(form).getByLabelText('Quantity to reserve'), '5');
    await user.click(within(form).getByRole('button', { name: 'Reserve' }));
    const done = await screen.findByText(/Reserved 5 of Green tea for SO-9/);
    expect(done).toHaveTextContent('5 from lot TEA-1');
    expect(done).toHaveTextContent('WH1 / A-01');
  });
});

describe('ValuationPage', () => {
  it('shows the value per product and currency, with exact totals per currency', async () => {
    const rows: ValuationRow[] = [
      {
        product_id: 'p-tea',
        product_name: 'Green tea',
        on_hand: '15',
        values: [
          { currency: 'EUR', quantity: '10', value: '25.10' },
          { currency: 'USD', quantity: '5', value: '15.00' },
        ],
        unvalued_quantity: '0',
      },
      {
        product_id: 'p-cof',
        product_name: 'Coffee',
        on_hand: '3',
        values: [{ currency: 'EUR', quantity: '2', value: '0.20' }],
        unvalued_quantity: '1',
      },
    ];
    mockApi({ 'GET /api/stock/valuation': () => json(200, { products: rows }) });
    renderPage(<ValuationPage />, { route: '/erp/inventory' });
    const table = await screen.findByRole('table', {
      name: 'Value on hand per product and currency',
    });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(within(table).getByText('No receipt cost')).toBeInTheDocument();
    const euro = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
    });
    expect(screen.getByText('Total in EUR').parentElement).toHaveTextContent(euro.format(25.3));
  });
});
