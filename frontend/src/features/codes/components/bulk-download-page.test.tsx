import { act, fireEvent, screen, within } from '@testing-library/react';
import type { SessionInfo } from '@/lib/api/types';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { json, mockApi, networkDown, type RecordedCall } from '@/testing/mock-api';
import {
  adminSession,
  clientModules,
  moduleCatalogue,
  renderPage,
  signInAs,
} from '@/testing/render';
import { bulkDownloadUrl, type BulkSummary, type CodeLot } from '../api/codes-api';
import { bulkSelection, summaryText } from '../bulk-download';
import { codeLot, lotList } from '../test-data';
import { BulkDownloadPage } from './bulk-download-page';

const session: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, role: 'employee', clientId: 'clientB' },
  allowedPaths: ['/', '/clientB', '/pmbi', '/profile'],
  modules: clientModules,
  moduleCatalogue,
};

const lots: CodeLot[] = [
  codeLot({
    id: 'lot-b',
    number: 'B-2',
    product_name: 'Loratadine 10 mg',
    gtin: '04012345000016',
    expires_on: '2029-01-31',
    codes: 0,
    pending: 1,
    last_job_at: '2026-03-10T08:00:00Z',
  }),
  codeLot({
    id: 'lot-a',
    number: 'A-1',
    expires_on: '2028-12-31',
    codes: 1000,
    jobs: 2,
    last_job_at: '2026-03-05T23:30:00Z',
  }),
];

const summary = (files: number, codes: number, pending = 0): BulkSummary => ({
  files,
  codes,
  pending,
});
const refusal = (status: number, error: string, code: string) => () =>
  json(status, { error, code });

type Handler = Parameters<typeof mockApi>[0][string];

/** What the server answers for each selection, by its query (`lot_id=…&lot_id=…`, `from=…&to=…`). */
const answers: Record<string, Handler> = {
  'lot_id=lot-a': () => json(200, summary(2, 1000)),
  'lot_id=lot-a&lot_id=lot-b': () => json(200, summary(2, 1000, 1)),
  'lot_id=lot-b': refusal(
    409,
    'The codes for the chosen batch are still being generated. Download them when the jobs are done.',
    'conflict',
  ),
  'from=2026-01-01&to=2026-03-01': () => json(200, summary(2, 650)),
  'from=2025-01-01&to=2025-12-31': refusal(
    404,
    'No codes have been generated from 2025-01-01 to 2025-12-31: there is nothing to download.',
    'not_found',
  ),
};

function setup({
  list = lotList(lots),
  bulk = (call: RecordedCall) => {
    const answer = answers[call.url.searchParams.toString()];
    if (!answer) throw new Error(`no answer for ${call.url.search}`);
    return answer(call);
  },
}: { list?: ReturnType<typeof lotList>; bulk?: Handler } = {}) {
  signInAs(session);
  const api = mockApi({
    'GET /api/codes/lots': () => json(200, list),
    'GET /api/codes/bulk': bulk,
  });
  return { ...api, ...renderPage(<BulkDownloadPage />, { route: '/pmbi/codeDownload' }) };
}

const summaries = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/codes/bulk');
const download = () => screen.getByRole('link', { name: 'Download ZIP' });
const disabledDownload = () => screen.getByRole('button', { name: 'Download ZIP' });
/** While the selection is counted: a button that does not look or act ready. */
function expectWaiting() {
  const button = disabledDownload();
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(button).toHaveClass('btn--waiting');
  expect(screen.queryByRole('link', { name: 'Download ZIP' })).not.toBeInTheDocument();
}
const status = () => screen.getByRole('status');
const batches = () => within(screen.getByRole('group', { name: 'Batches' }));
const batch = (number: string) => batches().getByRole('checkbox', { name: new RegExp(number) });

/**
 * User-event waits on `setTimeout` after each action, which a faked
 * timer never fires: with fake timers on, these tests act on the page
 * directly, as the other tests of features/codes do.
 */
async function click(element: HTMLElement) {
  await act(() => element.click());
  await settle();
}

/** Sets a field's value as a person typing it would. */
async function fill(field: HTMLElement, value: string) {
  await act(() => fireEvent.change(field, { target: { value } }));
  await settle();
}

/** Opens the page with `setTimeout` faked, its batches loaded. */
async function open(options?: Parameters<typeof setup>[0]) {
  fakeTimeouts();
  const view = setup(options);
  await settle();
  return view;
}

/** A promise to answer a call with later, by hand. */
function deferred() {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Bulk code download (/pmbi/codeDownload)', () => {
  it('offers the batches of listCodeLots, each with its product, and downloads the chosen ones as one ZIP', async () => {
    const { calls } = await open();
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/codes/lots']);
    expect(batches().getAllByRole('checkbox')).toHaveLength(2);
    expect(batch('A-1')).toHaveAccessibleDescription(
      'Cetirizine 10 mg · GTIN 04006381333931 · expires Dec 31, 2028 · 1,000 codes',
    );
    expect(batch('B-2')).toHaveAccessibleDescription(
      'Loratadine 10 mg · GTIN 04012345000016 · expires Jan 31, 2029 · no codes yet · 1 still generating',
    );
    // Every batch is listed: no word about older ones.
    expect(screen.queryByText(/batches with the newest jobs/)).not.toBeInTheDocument();
    expect(disabledDownload()).toBeDisabled();
    expect(status()).toHaveTextContent('Choose at least one batch.');
    await tick(1000);
    expect(summaries(calls)).toHaveLength(0);

    // The server counts the selection, a moment after the change.
    await click(batch('A-1'));
    expect(status()).toHaveTextContent('Counting the codes of this selection…');
    expect(status()).toHaveAttribute('aria-busy', 'true');
    expectWaiting();
    await tick(299);
    expect(summaries(calls)).toHaveLength(0);
    await tick(1);
    expect(summaries(calls)).toHaveLength(1);
    expect(summaries(calls)[0]!.url.searchParams.getAll('lot_id')).toEqual(['lot-a']);
    expect(status()).toHaveTextContent('1,000 codes in 2 files.');
    expect(status()).toHaveAttribute('aria-busy', 'false');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?lot_id=lot-a');
    expect(download()).toHaveAttribute('download');

    await click(batch('B-2'));
    expectWaiting();
    await tick(300);
    expect(summaries(calls)[1]!.url.searchParams.getAll('lot_id')).toEqual(['lot-a', 'lot-b']);
    expect(status()).toHaveTextContent('1,000 codes in 2 files; 1 still generating, left out.');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?lot_id=lot-a&lot_id=lot-b');
  });

  it('shows the server’s refusal of a selection (409, 404) and offers no download', async () => {
    const { calls } = await open();
    await click(batch('B-2'));
    await tick(300);
    expect(status()).toHaveTextContent(
      'The codes for the chosen batch are still being generated. Download them when the jobs are done.',
    );
    expect(disabledDownload()).toBeDisabled();
    // A refusal is the selection's answer: asking again would not change it.
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();

    await click(screen.getByRole('radio', { name: 'Date range' }));
    await fill(screen.getByLabelText('First day'), '2025-01-01');
    await fill(screen.getByLabelText('Last day'), '2025-12-31');
    await tick(300);
    expect(summaries(calls).at(-1)!.url.search).toBe('?from=2025-01-01&to=2025-12-31');
    expect(status()).toHaveTextContent(
      'No codes have been generated from 2025-01-01 to 2025-12-31: there is nothing to download.',
    );
    expect(disabledDownload()).toBeDisabled();
  });

  it('asks once for quick changes, and drops the answer to an older selection', async () => {
    const held: Record<string, ReturnType<typeof deferred>> = {};
    const { calls } = await open({
      bulk: (call) => (held[call.url.searchParams.toString()] = deferred()).promise,
    });
    // Two changes within the delay: one question, for the last selection.
    await click(batch('A-1'));
    await tick(200);
    await click(batch('B-2'));
    await tick(200);
    expect(summaries(calls)).toHaveLength(0);
    await tick(100);
    expect(summaries(calls).map((c) => c.url.search)).toEqual(['?lot_id=lot-a&lot_id=lot-b']);

    // The selection changes while the answer is on its way; the newer answer comes first.
    await click(batch('B-2'));
    await tick(300);
    expect(summaries(calls)).toHaveLength(2);
    await act(async () => held['lot_id=lot-a']!.resolve(json(200, summary(2, 1000))));
    await settle();
    expect(status()).toHaveTextContent('1,000 codes in 2 files.');
    await act(async () =>
      held['lot_id=lot-a&lot_id=lot-b']!.resolve(json(200, summary(3, 5000, 1))),
    );
    await settle();
    expect(status()).toHaveTextContent('1,000 codes in 2 files.');
    expect(status()).not.toHaveTextContent('5,000');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?lot_id=lot-a');
  });

  it('keeps a click made while the selection is counted, and downloads once the count is in', async () => {
    const clicked: string[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    await open();
    await click(batch('A-1'));
    expectWaiting();
    await click(disabledDownload());
    expect(clicked).toEqual([]);
    expect(status()).toHaveTextContent(
      'Counting the codes of this selection… The download starts as soon as the count is ready.',
    );
    await tick(300);
    expect(status()).toHaveTextContent('1,000 codes in 2 files.');
    expect(clicked).toEqual(['/api/codes/bulk.zip?lot_id=lot-a']);
    // Once: the next count does not download again by itself.
    await click(batch('B-2'));
    await tick(300);
    expect(clicked).toHaveLength(1);

    // A click while counting a selection the server refuses downloads nothing.
    await click(batch('A-1'));
    expectWaiting();
    await click(disabledDownload());
    await tick(300);
    expect(status()).toHaveTextContent('still being generated');
    expect(disabledDownload()).toBeDisabled();
    expect(clicked).toHaveLength(1);
    spy.mockRestore();
  });

  it('counts a range of days and checks it before asking', async () => {
    const { calls } = await open();
    await click(screen.getByRole('radio', { name: 'Date range' }));
    expect(status()).toHaveTextContent('Enter the first and the last day.');
    await fill(screen.getByLabelText('First day'), '2026-03-06');
    await fill(screen.getByLabelText('Last day'), '2026-03-01');
    await tick(300);
    expect(status()).toHaveTextContent('The first day must not be after the last.');
    expect(disabledDownload()).toBeDisabled();
    expect(summaries(calls)).toHaveLength(0);

    await fill(screen.getByLabelText('First day'), '2026-01-01');
    await tick(300);
    expect(summaries(calls).map((c) => c.url.search)).toEqual(['?from=2026-01-01&to=2026-03-01']);
    expect(status()).toHaveTextContent('650 codes in 2 files.');
    expect(download()).toHaveAttribute('href', '/api/codes/bulk.zip?from=2026-01-01&to=2026-03-01');
  });

  it('offers to count again when the server could not answer', async () => {
    let failures = 1;
    const { calls } = await open({
      bulk: () => (failures-- > 0 ? networkDown() : json(200, summary(2, 1000))),
    });
    await click(batch('A-1'));
    await tick(300);
    expect(status()).toHaveTextContent('A network error occurred. Please check your connection.');
    expect(disabledDownload()).toBeDisabled();
    await click(screen.getByRole('button', { name: 'Try again' }));
    await tick(300);
    expect(summaries(calls)).toHaveLength(2);
    expect(status()).toHaveTextContent('1,000 codes in 2 files.');
    expect(download()).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('says that only the batches with the newest jobs are listed when there are more', async () => {
    await open({ list: lotList(lots, true) });
    expect(
      screen.getByText(
        'Only the 2 batches with the newest jobs are listed. To download the codes of older batches, choose a date range.',
      ),
    ).toBeInTheDocument();
  });

  it('opens on the date range when there are no batches', async () => {
    await open({ list: lotList([]) });
    expect(screen.getByRole('radio', { name: 'Date range' })).toBeChecked();
    await click(screen.getByRole('radio', { name: 'Batches' }));
    expect(
      screen.getByText(
        'No batches yet: codes generated without a lot number are downloaded by date range.',
      ),
    ).toBeInTheDocument();
  });

  it('says when the batches could not be loaded, and loads them again', async () => {
    let failures = 1;
    signInAs(session);
    mockApi({
      'GET /api/codes/lots': () =>
        failures-- > 0 ? json(500, { error: '', code: 'internal' }) : json(200, lotList(lots)),
    });
    const { user } = renderPage(<BulkDownloadPage />, { route: '/pmbi/codeDownload' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your batches could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: 'Batches' })).toBeInTheDocument();
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
    expect(bulkSelection('range', [], '2026-03-02', '2026-03-01')).toEqual({
      ok: false,
      reason: 'The first day must not be after the last.',
    });
    expect(bulkSelection('range', ['ignored'], '2026-01-01', '2026-01-01')).toEqual({
      ok: true,
      selection: { kind: 'range', from: '2026-01-01', to: '2026-01-01' },
    });
  });

  it('words a summary and builds the download’s address', () => {
    expect(summaryText(summary(1, 1))).toBe('1 code in 1 file');
    expect(summaryText(summary(1200, 1_234_567))).toBe('1,234,567 codes in 1,200 files');
    expect(bulkDownloadUrl({ kind: 'lots', lotIds: ['a b'] })).toBe(
      '/api/codes/bulk.zip?lot_id=a+b',
    );
  });
});
