import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import type { Lot, Nonconformance } from '../api/quality-api';
import { QualityPage } from './quality-page';

const lot: Lot = {
  id: 'lot-1',
  product_id: 'p-1',
  product_name: '<b>Syrup</b>',
  gtin: '04012345678901',
  number: 'L42',
  expires_on: '2030-01-31',
  status: 'quarantine',
  expired: false,
  status_changed_at: '2026-11-01T10:00:00Z',
  created_at: '2026-11-01T10:00:00Z',
};

const nc: Nonconformance = {
  id: 'nc-1',
  title: 'Label smudged',
  description: 'Unreadable.',
  severity: 'major',
  state: 'investigating',
  version: 2,
  created_by_name: 'Ada Admin',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  steps: [],
};

function setup(role: 'admin' | 'worker') {
  signInAs({ ...adminSession, user: { ...adminSession.user, role } });
  const api = mockApi({
    'GET /api/lots': () => json(200, { lots: [lot], more: false }),
    'GET /api/nonconformances': () => json(200, { nonconformances: [nc] }),
    'GET /api/inspections': () => json(200, { inspections: [] }),
    'POST /api/inspections': () => json(201, { id: 'i-1', verdict: 'fail', lot_status: 'held' }),
    'PATCH /api/nonconformances/nc-1': (call) =>
      json(200, { ...nc, ...(call.body as object), state: 'action', version: 3 }),
  });
  return { ...api, ...renderPage(<QualityPage />, { route: '/QAandCompliance' }) };
}

describe('QualityPage', () => {
  it('lists lots by status, and records an inspection checked before it is sent', async () => {
    const { user, calls } = setup('worker');
    const table = await screen.findByRole('table', { name: 'Lots' });
    expect(within(table).getByRole('row', { name: /L42/ })).toHaveTextContent('<b>Syrup</b>');
    await user.selectOptions(screen.getByLabelText('Status'), 'held');
    await screen.findByRole('table', { name: 'Lots' });
    expect(calls.filter((c) => c.url.pathname === '/api/lots').at(-1)?.url.search).toBe(
      '?status=held',
    );

    await user.click(screen.getByRole('button', { name: 'Open lot L42' }));
    const panel = await screen.findByRole('region', { name: 'Lot L42' });
    // Workers inspect but do not change a lot's status.
    expect(within(panel).queryByRole('form', { name: 'Change lot status' })).toBeNull();
    const check = within(panel).getByRole('group', { name: 'Check 1' });
    await user.type(within(check).getByLabelText('Parameter'), 'pH');
    await user.type(within(check).getByLabelText('Min'), '7');
    await user.type(within(check).getByLabelText('Max'), '6');
    await user.type(within(check).getByLabelText('Value found'), 'seven');
    await user.click(within(panel).getByRole('button', { name: 'Record inspection' }));
    expect(
      within(check).getByText('The upper limit must not be below the lower one.'),
    ).toBeInTheDocument();
    expect(within(check).getByText('A decimal number such as 7.1.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(check).getByLabelText('Max'));
    await user.type(within(check).getByLabelText('Max'), '7.5');
    await user.clear(within(check).getByLabelText('Value found'));
    await user.type(within(check).getByLabelText('Value found'), '8');
    await user.click(within(panel).getByRole('button', { name: 'Record inspection' }));
    expect(await screen.findByText('Inspection recorded: failed. Lot L42 is held.')).toBeVisible();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      lot_id: 'lot-1',
      checks: [{ parameter: 'pH', min: '7', max: '7.5', value: '8' }],
    });
    // The board is read-only for workers.
    expect(screen.queryByRole('button', { name: /^Move/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Raise nonconformance' })).toBeNull();
  });

  it('moves a nonconformance to its next state only with the fields it needs', async () => {
    const { user, calls } = setup('admin');
    const column = await screen.findByRole('region', { name: /^Investigating/ });
    const card = within(column).getByRole('article', { name: 'Label smudged' });
    await user.click(within(card).getByRole('button', { name: 'Move “Label smudged” to action' }));
    await user.click(within(card).getByRole('button', { name: 'Move to Action' }));
    expect(within(card).getByText('Needed to move to action.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await user.type(within(card).getByLabelText('Root cause'), 'Ink dried.');
    await user.click(within(card).getByRole('button', { name: 'Move to Action' }));
    const action = await screen.findByRole('region', { name: /^Action/ });
    expect(await within(action).findByRole('article', { name: 'Label smudged' })).toHaveTextContent(
      'Ink dried.',
    );
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      version: 2,
      state: 'action',
      root_cause: 'Ink dried.',
    });
  });
});
