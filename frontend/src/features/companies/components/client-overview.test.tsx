import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '@/testing/mock-api';
import { clientModules, moduleCatalogue, renderPage, signInAs } from '@/testing/render';
import type { ClientOverview } from '../api/companies-api';
import { ClientOverviewView } from './client-overview';

function setup(answer: () => Response) {
  signInAs({
    user: {
      id: 'u-b',
      name: 'Bea Admin',
      email: 'admin@clientb.test',
      role: 'admin',
      clientId: 'clientB',
      organisationKind: 'client',
    },
    csrfToken: 'csrf-test-token',
    allowedPaths: ['/', '/clientB', '/pmbi'],
    assignableRoles: [],
    modules: clientModules,
    moduleCatalogue,
  });
  const api = mockApi({ 'GET /api/client-overview': answer });
  return { ...api, ...renderPage(<ClientOverviewView />, { route: '/clientB/dashboard' }) };
}

const overview: ClientOverview = {
  codes: { generated: 12_000, printed: 9_500, scanned: 37 },
  batches: [
    {
      id: 'l1',
      product_id: 'p1',
      product_name: '<b>Loratadine</b> 10 mg',
      number: 'PCM2611',
      manufactured_on: '2026-01-01',
      expires_on: '2028-01-31',
      codes: 12_000,
    },
  ],
  more_batches: true,
};

describe('ClientOverviewView', () => {
  it('shows the organisation’s codes generated, printed and scanned, and its batches', async () => {
    const { calls } = setup(() => json(200, overview));
    expect(await screen.findByText('12,000', { selector: '.stat__value' })).toBeInTheDocument();
    expect(screen.getByText('9,500')).toBeInTheDocument();
    expect(screen.getByText('37')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Your batches' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('PCM2611');
    // Markup in a product's name is shown as text.
    expect(row).toHaveTextContent('<b>Loratadine</b> 10 mg');
    expect(screen.getByText('The newest 1 batches are listed.')).toBeInTheDocument();
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/client-overview']);
  });

  it('says when there are no batches yet', async () => {
    setup(() => json(200, { ...overview, batches: [], more_batches: false }));
    expect(await screen.findByText(/No batches yet/)).toBeInTheDocument();
  });

  it('offers to try again when the overview could not be loaded', async () => {
    setup(() => json(500, { error: '', code: 'internal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your codes and batches could not be loaded.',
    );
  });
});
