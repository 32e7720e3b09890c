import { screen, waitFor, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { DashboardPage } from './dashboard-page';

const steps = [
  {
    key: 'product',
    title: 'Add a product',
    hint: 'Its name, GTIN and SKU id.',
    done: true,
    path: '/products/Add_product',
  },
  {
    key: 'codes',
    title: 'Generate codes',
    hint: 'Open a product.',
    done: false,
    path: '/products',
  },
  { key: 'print', title: 'Print labels', hint: 'A print job.', done: false },
];

describe('DashboardPage', () => {
  it('names the organisation, as text, in the greeting', async () => {
    signInAs({
      ...adminSession,
      user: { ...adminSession.user, organisationName: '<b>Acme</b> & Co' },
    });
    mockApi({
      'GET /api/organisation/get-started': () => json(200, { steps: [], dismissed: false }),
    });
    renderPage(<DashboardPage />);
    expect(await screen.findByText('Signed in as Admin at <b>Acme</b> & Co.')).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
  });

  it('shows working pages only among its tiles', () => {
    signInAs({
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/Sales', '/erp', '/print/lables'],
    });
    mockApi({
      'GET /api/organisation/get-started': () => json(200, { steps: [], dismissed: false }),
    });
    renderPage(<DashboardPage />);
    const tiles = within(screen.getByRole('region', { name: 'Go to' }));
    expect(tiles.getByRole('link', { name: 'Label designs' })).toBeInTheDocument();
    expect(tiles.getByRole('link', { name: 'Print jobs' })).toBeInTheDocument();
    expect(tiles.queryByRole('link', { name: 'Sales' })).not.toBeInTheDocument();
    expect(tiles.queryByRole('link', { name: 'ERP' })).not.toBeInTheDocument();
    expect(tiles.queryByRole('link', { name: 'Icons' })).not.toBeInTheDocument();
  });

  it('shows the checklist with its ticks and links, hides it and shows it again', async () => {
    signInAs(adminSession);
    const { calls, user } = {
      ...mockApi({
        'GET /api/organisation/get-started': () => json(200, { steps, dismissed: false }),
        'PUT /api/organisation/get-started': (call) =>
          json(200, { steps, dismissed: (call.body as { dismissed: boolean }).dismissed }),
      }),
      ...renderPage(<DashboardPage />),
    };
    const card = within(await screen.findByRole('region', { name: 'Get started' }));
    expect(card.getByText('1 of 3 done.', { exact: false })).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'Add a product' })).toHaveAttribute(
      'href',
      '/products/Add_product',
    );
    expect(card.getByRole('link', { name: 'Generate codes' })).toHaveAttribute('href', '/products');
    // A page this user may not open is no link.
    expect(card.queryByRole('link', { name: 'Print labels' })).not.toBeInTheDocument();
    expect(card.getByText('Print labels')).toBeInTheDocument();
    const items = card.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('(done)');
    expect(items[1]).toHaveTextContent('(to do)');

    await user.click(card.getByRole('button', { name: 'Hide get started' }));
    const show = await screen.findByRole('button', { name: 'Show get started' });
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
    await user.click(show);
    expect(await screen.findByRole('region', { name: 'Get started' })).toBeInTheDocument();
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(2);
  });

  it('shows nothing once every step is done', async () => {
    signInAs(adminSession);
    const { calls } = mockApi({
      'GET /api/organisation/get-started': () =>
        json(200, { steps: steps.map((s) => ({ ...s, done: true })), dismissed: false }),
    });
    renderPage(<DashboardPage />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show get started' })).not.toBeInTheDocument();
  });
});
