import { screen, within } from '@testing-library/react';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { bulkDownloadUrl } from '../api/codes-api';
import { bulkLotsOf, bulkSelection, selectionCodes } from '../bulk-download';
import { PRODUCT_ID, codeJob, jobList } from '../test-data';
import { BulkDownloadPage } from './bulk-download-page';

const session: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, role: 'employee', clientId: 'clientB' },
  allowedPaths: ['/', '/clientB', '/pmbi', '/profile'],
};

const jobs = [
  codeJob({
    id: 'j-3',
    status: 'running',
    quantity: 900,
    generated: 100,
    lot_id: 'lot-b',
    lot: { number: 'B-2', expires_on: '2029-01-31' },
    created_at: '2026-03-10T08:00:00Z',
  }),
  codeJob({
    id: 'j-2',
    quantity: 400,
    generated: 400,
    lot_id: 'lot-a',
    lot: { number: 'A-1', expires_on: '2028-12-31' },
    created_at: '2026-03-05T23:30:00Z',
  }),
  codeJob({
    id: 'j-1',
    quantity: 600,
    generated: 600,
    lot_id: 'lot-a',
    lot: { number: 'A-1', expires_on: '2028-12-31' },
    created_at: '2026-03-01T10:00:00Z',
  }),
  codeJob({ id: 'j-0', quantity: 50, generated: 50, created_at: '2026-02-01T10:00:00Z' }),
];

function setup(list = jobs) {
  signInAs(session);
  const api = mockApi({ 'GET /api/code-jobs': () => json(200, jobList(list)) });
  const names = new Map([[PRODUCT_ID, 'Cetirizine 10 mg']]);
  return {
    ...api,
    ...renderPage(<BulkDownloadPage productNames={names} />, { route: '/pmbi/codeDownload' }),
  };
}

const download = () => screen.getByRole('link', { name: 'Download ZIP' });
const disabledDownload = () => screen.getByRole('button', { name: 'Download ZIP' });

describe('Bulk code download (/pmbi/codeDownload)', () => {
  it('offers the batches of the jobs, each once, and downloads the chosen ones as one ZIP', async () => {
    const { user, calls } = setup();
    const batches = within(await screen.findByRole('group', { name: 'Batches' }));
    // Every product's jobs.
    expect(calls[0]!.url.searchParams.get('product_id')).toBeNull();
    const boxes = batches.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(batches.getByRole('checkbox', { name: /A-1/ })).toHaveAccessibleDescription(
      'Cetirizine 10 mg · GTIN 04006381333931 · expires Dec 31, 2028 · 1,000 codes',
    );
    expect(batches.getByRole('checkbox', { name: /B-2/ })).toHaveAccessibleDescription(
      /no codes yet · 1 still generating/,
    );
    expect(disabledDownload()).toBeDisabled();
    expect(screen.getByText('Choose at least one batch.')).toBeInTheDocument();

    await user.click(batches.getByRole('checkbox', { name: /A-1/ }));
    expect(screen.getByRole('status')).toHaveTextContent('1,000 codes in 2 files.');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?lot_id=lot-a');
    expect(download()).toHaveAttribute('download');

    await user.click(batches.getByRole('checkbox', { name: /B-2/ }));
    expect(screen.getByRole('status')).toHaveTextContent(
      '1,000 codes in 2 files; 1 still generating, left out.',
    );
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?lot_id=lot-a&lot_id=lot-b');

    await user.click(batches.getByRole('checkbox', { name: /A-1/ }));
    expect(screen.getByRole('status')).toHaveTextContent(/still being generated/);
    expect(disabledDownload()).toBeDisabled();
  });

  it('downloads the jobs of a range of days (UTC), and says when it holds no codes', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('radio', { name: 'Date range' }));
    await user.type(screen.getByLabelText('First day'), '2026-03-06');
    await user.type(screen.getByLabelText('Last day'), '2026-03-01');
    expect(screen.getByRole('status')).toHaveTextContent(
      'The first day must not be after the last.',
    );
    expect(disabledDownload()).toBeDisabled();

    await user.clear(screen.getByLabelText('First day'));
    await user.type(screen.getByLabelText('First day'), '2026-01-01');
    expect(screen.getByRole('status')).toHaveTextContent('650 codes in 2 files.');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?from=2026-01-01&to=2026-03-01');

    await user.clear(screen.getByLabelText('First day'));
    await user.type(screen.getByLabelText('First day'), '2025-01-01');
    await user.clear(screen.getByLabelText('Last day'));
    await user.type(screen.getByLabelText('Last day'), '2025-12-31');
    expect(screen.getByRole('status')).toHaveTextContent(
      'No codes have been generated for this selection: there is nothing to download.',
    );
    expect(disabledDownload()).toBeDisabled();
  });

  it('says when no codes have been generated at all', async () => {
    setup([]);
    expect(await screen.findByText(/No codes have been generated yet/)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});

describe('the bulk download’s rules', () => {
  it('refuses empty, too large and reversed selections, as the server does', () => {
    expect(bulkSelection('lots', [], '', '')).toEqual({
      ok: false,
      reason: 'Choose at least one batch.',
    });
    const many = Array.from({ length: 101 }, (_, i) => `lot-${i}`);
    expect(bulkSelection('lots', many, '', '')).toEqual({
      ok: false,
      reason: 'Choose at most 100 batches at once.',
    });
    expect(bulkSelection('range', [], '2026-01-01', '')).toEqual({
      ok: false,
      reason: 'Enter the first and the last day.',
    });
    expect(bulkSelection('range', ['ignored'], '2026-01-01', '2026-01-01')).toEqual({
      ok: true,
      selection: { kind: 'range', from: '2026-01-01', to: '2026-01-01' },
    });
  });

  it('counts a job on its UTC day and a lot’s codes of finished jobs only', () => {
    expect(selectionCodes(jobs, { kind: 'range', from: '2026-03-05', to: '2026-03-05' })).toEqual({
      codes: 400,
      jobs: 1,
      pending: 0,
    });
    expect(bulkLotsOf(jobs).map((l) => [l.number, l.codes, l.pending])).toEqual([
      ['B-2', 0, 1],
      ['A-1', 1000, 0],
    ]);
    expect(bulkDownloadUrl({ kind: 'lots', lotIds: ['a b'] })).toBe(
      '/api/codes/bulk.zip?lot_id=a+b',
    );
  });
});
