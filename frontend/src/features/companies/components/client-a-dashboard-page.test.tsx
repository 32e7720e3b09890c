import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '@/testing/mock-api';
import { clientModules, moduleCatalogue, renderPage, signInAs } from '@/testing/render';
import type { Company, CompanyOverview } from '../api/companies-api';
import { ClientADashboardPage } from './client-a-dashboard-page';

const ALPHA = '11111111-1111-4111-8111-111111111111';
const BETA = '22222222-2222-4222-8222-222222222222';

function company(id: string, cin: string, name: string): Company {
  return {
    id,
    cin,
    name,
    registered_address: 'Plot 12, MIDC, Mumbai',
    created_at: '2026-11-20T10:00:00Z',
  };
}

const alpha = company(ALPHA, 'L24230MH1950PLC008311', 'Alpha Laboratories Ltd');
const beta = company(BETA, 'U72200KA2007PTC041799', '<b>Beta</b> Pharma');

const overview: CompanyOverview = {
  company: alpha,
  products: [
    { id: 'p1', product_name: 'Paracetamol 500 mg', skuid: 'PCM-500', gtin: '08901234567897' },
  ],
  batches: [
    {
      id: 'l1',
      product_id: 'p1',
      product_name: 'Paracetamol 500 mg',
      number: 'B2026-01',
      manufactured_on: '2026-01-01',
      expires_on: '2028-01-01',
      codes: 1200,
    },
  ],
  codes: { generated: 1200, printed: 1000, scanned: 37 },
};

function session(role: 'admin' | 'employee') {
  signInAs({
    user: {
      id: 'u1',
      name: 'Ana',
      email: `${role}@clienta.test`,
      role,
      clientId: 'clientA',
      organisationKind: 'client',
    },
    csrfToken: 'csrf-test-token',
    allowedPaths: ['/', '/clientA', '/gme', '/profile', '/settings'],
    assignableRoles: role === 'admin' ? ['employee'] : [],
    modules: clientModules,
    moduleCatalogue,
  });
}

describe('ClientADashboardPage', () => {
  it('lists the companies by CIN and shows the chosen one’s overview', async () => {
    session('employee');
    mockApi({
      'GET /api/companies': () => json(200, { companies: [alpha, beta] }),
      [`GET /api/companies/${ALPHA}/overview`]: () => json(200, overview),
    });
    const { user } = renderPage(<ClientADashboardPage />, { route: '/clientA/dashboard' });
    const select = await screen.findByRole('combobox', { name: 'Company (CIN)' });
    expect(
      within(select).getByRole('option', { name: /U72200KA2007PTC041799 — <b>Beta<\/b> Pharma/ }),
    ).toBeInTheDocument();
    // Employees do not add companies.
    expect(screen.queryByRole('form', { name: 'Add company' })).not.toBeInTheDocument();

    await user.selectOptions(select, ALPHA);
    const products = await screen.findByRole('table', {
      name: 'Products of Alpha Laboratories Ltd',
    });
    expect(within(products).getByText('Paracetamol 500 mg')).toBeInTheDocument();
    const batches = screen.getByRole('table', { name: 'Batches of Alpha Laboratories Ltd' });
    expect(within(batches).getByText('B2026-01')).toBeInTheDocument();
    expect(screen.getByText('Codes generated').nextSibling).toHaveTextContent('1,200');
    expect(screen.getByText('Codes printed').nextSibling).toHaveTextContent('1,000');
    expect(screen.getByText('Codes scanned').nextSibling).toHaveTextContent('37');
  });

  it('says what to do when there are no companies', async () => {
    session('employee');
    mockApi({ 'GET /api/companies': () => json(200, { companies: [] }) });
    renderPage(<ClientADashboardPage />, { route: '/clientA/dashboard' });
    expect(await screen.findByText(/Ask an admin of your organisation/)).toBeInTheDocument();
  });

  it('checks the CIN part by part before an admin adds a company', async () => {
    session('admin');
    const { calls } = mockApi({
      'GET /api/companies': () => json(200, { companies: [] }),
      'POST /api/companies': () => json(201, alpha),
      [`GET /api/companies/${ALPHA}/overview`]: () =>
        json(200, {
          ...overview,
          products: [],
          batches: [],
          codes: { generated: 0, printed: 0, scanned: 0 },
        }),
    });
    const { user } = renderPage(<ClientADashboardPage />, { route: '/clientA/dashboard' });
    expect(await screen.findByText(/Add your first company below/)).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Add company' });
    const cin = within(form).getByRole('textbox', { name: /CIN/ });
    await user.type(cin, 'l24230zz1950plc008311');
    // Typed letters become capitals.
    expect(cin).toHaveValue('L24230ZZ1950PLC008311');
    await user.type(
      within(form).getByRole('textbox', { name: 'Registered name' }),
      'Alpha Laboratories Ltd',
    );
    await user.type(
      within(form).getByRole('textbox', { name: /Registered address/ }),
      'Plot 12, MIDC, Mumbai',
    );
    await user.click(within(form).getByRole('button', { name: 'Add company' }));
    expect(
      await within(form).findByText(/CIN state code \(characters 7 and 8\)/),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(cin);
    await user.type(cin, 'L24230MH1950PLC008311');
    await user.click(within(form).getByRole('button', { name: 'Add company' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      cin: 'L24230MH1950PLC008311',
      name: 'Alpha Laboratories Ltd',
      registered_address: 'Plot 12, MIDC, Mumbai',
    });
    // The new company is chosen, and its empty overview says what to do.
    expect(await screen.findByRole('combobox', { name: 'Company (CIN)' })).toHaveValue(ALPHA);
    expect(await screen.findByText(/No products belong to this company yet/)).toBeInTheDocument();
  });

  it('shows the server’s refusal', async () => {
    session('admin');
    mockApi({
      'GET /api/companies': () => json(200, { companies: [alpha] }),
      'POST /api/companies': () =>
        json(409, {
          error:
            'A company with the CIN L24230MH1950PLC008311 is already registered in your organisation.',
          code: 'conflict',
        }),
    });
    const { user } = renderPage(<ClientADashboardPage />, { route: '/clientA/dashboard' });
    const form = await screen.findByRole('form', { name: 'Add company' });
    await user.type(within(form).getByRole('textbox', { name: /CIN/ }), 'L24230MH1950PLC008311');
    await user.type(within(form).getByRole('textbox', { name: 'Registered name' }), 'Again');
    await user.type(within(form).getByRole('textbox', { name: /Registered address/ }), 'Pune');
    await user.click(within(form).getByRole('button', { name: 'Add company' }));
    expect(await within(form).findByText(/already registered/)).toBeInTheDocument();
  });
});
