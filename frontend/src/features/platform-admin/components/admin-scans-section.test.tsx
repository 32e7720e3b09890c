import { screen, waitFor, within } from '@testing-library/react';
import type { SessionInfo } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { json, mockApi } from '@/testing/mock-api';
import { moduleCatalogue, renderPage, signInAs } from '@/testing/render';
import { AdminScansSection } from './admin-scans-section';

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

const scan = {
  id: '123',
  BrandId: 'acme',
  BrandName: 'Acme',
  scanned_at: '2026-11-24T10:00:00Z',
  verdict: 'suspicious',
  product_name: 'Aspirin 100',
  Geolocation: { loc: '19.0700,72.8700', country: 'IN', city: 'Mumbai', region: 'Maharashtra' },
};

const brands = [
  { id: 'acme', name: 'Acme Consumer Goods' },
  { id: 'globex', name: 'Globex' },
];

function setup(answer: (brandId: string | null) => unknown) {
  signInAs(platformSession);
  const api = mockApi({
    'GET /api/admin/scans': (call) => json(200, answer(call.url.searchParams.get('brandId'))),
  });
  return { ...api, ...renderPage(<AdminScansSection brands={brands} />) };
}

describe('Admin dashboard: scans', () => {
  it('lists the latest scans of every brand with their place', async () => {
    const { calls } = setup(() => [scan]);
    const table = await screen.findByRole('table', { name: 'Scans' });
    expect(calls[0]!.url.searchParams.has('brandId')).toBe(false);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'BrandId',
      'BrandName',
      'Time',
      'Product',
      'Verdict',
      'Loc',
      'Country',
      'Region',
      'City',
    ]);
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent(/acme.*Acme.*Aspirin 100.*Suspicious/);
    expect(row).toHaveTextContent(/19\.0700,72\.8700.*IN.*Maharashtra.*Mumbai/);
  });

  it('filters by brand through the slice’s activeBrandId', async () => {
    const { user, calls } = setup((brandId) => (brandId === 'globex' ? [] : [scan]));
    await screen.findByRole('table', { name: 'Scans' });
    await user.selectOptions(screen.getByLabelText('Brand'), 'Globex (globex)');
    expect(useAppStore.getState().adminScans.activeBrandId).toBe('globex');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.url.searchParams.get('brandId')).toBe('globex');
    // Spec §8, word for word.
    expect(await screen.findByText('No scans data available.')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Brand'), 'All brands');
    expect(useAppStore.getState().adminScans.activeBrandId).toBeNull();
    expect(await screen.findByText('Aspirin 100')).toBeInTheDocument();
  });

  it('says so when the list cannot be loaded', async () => {
    signInAs(platformSession);
    mockApi({ 'GET /api/admin/scans': () => json(500, { error: 'boom', code: 'internal' }) });
    renderPage(<AdminScansSection brands={brands} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('boom');
  });
});
