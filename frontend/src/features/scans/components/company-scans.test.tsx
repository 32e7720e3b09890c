import { screen, waitFor, within } from '@testing-library/react';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi } from '@/testing/mock-api';
import { moduleCatalogue, renderPage, signInAs } from '@/testing/render';
import { lastDays } from '../date-range';
import { CompanyScans } from './company-scans';

const platformSession: SessionInfo = {
  user: {
    id: 'u-pat',
    name: 'Pat Platform',
    email: 'platform@brandops.test',
    role: 'platform_admin',
  },
  csrfToken: 'csrf-test-token',
  allowedPaths: ['/', '/admin/dashboard', '/profile'],
  assignableRoles: [],
  modules: [],
  moduleCatalogue,
};

const loadCompanies = () =>
  Promise.resolve({ ok: true as const, data: [{ id: 'acme', name: 'Acme Consumer Goods' }] });

describe('Scan analytics for a platform admin', () => {
  it('asks for nothing until a brand is chosen, then names it as company_id', async () => {
    signInAs(platformSession);
    const { calls } = mockApi({
      'GET /api/brand-scans': () =>
        json(200, {
          data: {
            scan: [{ id: '0A1b2C3d4E5', product_id: 'p1', scan_count: 3 }],
            locations: [
              { country: 'IN', country_name: 'India', region: '', city: 'Pune', count: 3 },
            ],
            product_scans: [{ product_id: 'p1', sum: 3 }],
            total_qr_generated: [{ product_id: 'p1', count: 100 }],
            qr_codes_remaining: 900,
          },
        }),
    });
    const { user } = renderPage(<CompanyScans loadCompanies={loadCompanies} />);
    expect(await screen.findByText(/choose one to see its scans/)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.selectOptions(screen.getByLabelText('Brand'), 'Acme Consumer Goods');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      ...lastDays(30),
      company_id: 'acme',
    });
    const codes = await screen.findByLabelText('Most scanned codes', { selector: 'table' });
    expect(within(codes).getAllByRole('row')[1]).toHaveTextContent('0A1b2C3d4E5');
    expect(screen.getByText('QR codes left in the plan').nextSibling).toHaveTextContent('900');
    expect(
      within(screen.getByLabelText('Scans by place', { selector: 'table' })).getAllByRole('row')[1],
    ).toHaveTextContent(/India.*Unknown.*Pune.*3/);
  });

  it('shows the server’s “company_id is required” as it is (spec §8)', async () => {
    signInAs(platformSession);
    mockApi({
      'GET /api/brand-scans': () =>
        json(400, { error: 'company_id is required', code: 'company_id_required' }),
    });
    const { user } = renderPage(<CompanyScans loadCompanies={loadCompanies} />);
    await user.selectOptions(await screen.findByLabelText('Brand'), 'Acme Consumer Goods');
    expect(await screen.findByRole('alert')).toHaveTextContent('company_id is required');
  });
});
