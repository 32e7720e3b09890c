import { screen, waitFor, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { renderPage } from '@/testing/render';
import type { PriceList, Quote } from '../api/pricing-api';
import { PricingPage } from './pricing-page';

const list: PriceList = {
  id: 'pl-1',
  name: 'Retail 2026',
  currency: 'EUR',
  minor_units: 2,
  valid_from: '2026-01-01',
  tiering: 'graduated',
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  items: [
    {
      product_id: 'p-tea',
      product_name: 'Green tea',
      breaks: [
        { min_quantity: '1', unit_price: '10.00' },
        { min_quantity: '10', unit_price: '9.00' },
      ],
    },
  ],
};

const quote: Quote = {
  currency: 'EUR',
  unit_price: '9.9',
  total: '99.00',
  price_list_id: 'pl-1',
  price_list_name: 'Retail 2026',
  tiering: 'graduated',
  product_id: 'p-tea',
  quantity: '10',
  on: '2026-03-01',
  lines: [
    {
      from_quantity: '1',
      to_quantity: '9',
      quantity: '9',
      min_quantity: '1',
      unit_price: '10.00',
      amount: '90.00',
    },
    {
      from_quantity: '10',
      to_quantity: '10',
      quantity: '1',
      min_quantity: '10',
      unit_price: '9.00',
      amount: '9.00',
    },
  ],
};

function pricingApi(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/price-lists': () => json(200, { price_lists: [list] }),
    'GET /api/product-handler': () =>
      json(200, {
        products: [
          { id: 'p-tea', product_name: 'Green tea', skuid: 'TEA', gtin: '00000000000017' },
        ],
        max_products: 10,
        added_products: 1,
      }),
    'GET /api/customers': () => json(200, { customers: [] }),
    'GET /api/prices/quote': () => json(200, quote),
    ...extra,
  });
}

describe('PricingPage', () => {
  it('shows a worker the lists and the quote tool, never the forms that edit', async () => {
    pricingApi();
    renderPage(<PricingPage role="worker" />, { route: '/Pricing' });
    const table = await screen.findByRole('table', { name: 'Price lists' }, { timeout: 15_000 });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Retail 2026');
    expect(row).toHaveTextContent('Default (every customer)');
    expect(row).toHaveTextContent('Green tea: from 1 at 10.00 EUR; from 10 at 9.00 EUR');
    expect(screen.getByRole('form', { name: 'Quote a price' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create a price list' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Retail 2026' })).not.toBeInTheDocument();
  });

  it('quotes with decimal strings and shows the lines as the server wrote them', async () => {
    const { calls } = pricingApi();
    const { user } = renderPage(<PricingPage role="worker" />, { route: '/Pricing' });
    const form = await screen.findByRole('form', { name: 'Quote a price' }, { timeout: 15_000 });
    await user.selectOptions(within(form).getByLabelText('Product'), 'p-tea');
    const quantity = within(form).getByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, '10');
    await user.click(within(form).getByRole('button', { name: 'Quote' }));
    expect(await screen.findByText('99.00 EUR for 10 (9.9 EUR a unit)')).toBeInTheDocument();
    const lines = screen.getByRole('table', { name: 'Quote lines' });
    expect(within(lines).getAllByRole('row')).toHaveLength(3);
    expect(within(lines).getAllByRole('row')[2]).toHaveTextContent('9.00 EUR');
    const asked = calls.find((c) => c.url.pathname === '/api/prices/quote')!;
    expect(asked.url.searchParams.get('quantity')).toBe('10');
    expect(asked.url.searchParams.get('product_id')).toBe('p-tea');
    expect(asked.url.searchParams.has('customer_id')).toBe(false);
  });

  it('lets an admin create a list, checked before it is sent', async () => {
    const { calls } = pricingApi({
      'POST /api/price-lists': (call) =>
        json(201, { ...list, id: 'pl-2', ...(call.body as object) }),
    });
    const { user } = renderPage(<PricingPage role="admin" />, { route: '/Pricing' });
    const form = await screen.findByRole(
      'form',
      { name: 'Create a price list' },
      { timeout: 15_000 },
    );
    await user.click(within(form).getByRole('button', { name: 'Create the list' }));
    expect(within(form).getByText('Enter a name.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.type(within(form).getByLabelText('Name'), 'Wholesale');
    await user.type(within(form).getByLabelText('Valid from'), '2026-01-01');
    await user.selectOptions(within(form).getByLabelText('Product'), 'p-tea');
    await user.type(within(form).getByLabelText('Break 1: unit price'), '2,5');
    await user.click(within(form).getByRole('button', { name: 'Create the list' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Wholesale',
      currency: 'EUR',
      valid_from: '2026-01-01',
      tiering: 'volume',
      items: [{ product_id: 'p-tea', breaks: [{ min_quantity: '1', unit_price: '2.5' }] }],
    });
  });
});
