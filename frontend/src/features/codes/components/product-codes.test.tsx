import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import type { CodeJob, CodeJobList } from '../api/codes-api';
import { PRODUCT_ID, codeJob, jobList } from '../test-data';
import { ProductCodes } from './product-codes';

const session = (role: 'admin' | 'manager' | 'worker'): SessionInfo => ({
  ...adminSession,
  user: { ...adminSession.user, role },
});

const done = codeJob({
  id: 'job-done',
  quantity: 120_000,
  generated: 120_000,
  lot: { number: 'L-2026/1', manufactured_on: '2026-02-01', expires_on: '2027-03-31' },
  created_at: '2026-03-01T10:00:00Z',
});
const failed = codeJob({
  id: 'job-failed',
  status: 'failed',
  quantity: 5000,
  generated: 3000,
  error: 'The database went away.',
  created_at: '2026-02-01T10:00:00Z',
});
const running = (generated: number, quantity = 1_000_000): CodeJob =>
  codeJob({
    id: 'job-running',
    status: generated === quantity ? 'done' : 'running',
    quantity,
    generated,
    lot: { number: 'L7' },
    created_at: '2026-04-01T10:00:00Z',
  });

type Handlers = Parameters<typeof mockApi>[0];

/** Answers the list calls with `answers` in turn (the last one again after that). */
function listAnswers(...answers: CodeJobList[]) {
  let n = 0;
  return () => json(200, answers[Math.min(n++, answers.length - 1)]);
}

function setup({
  role = 'admin',
  archived = false,
  handlers = {},
  onJobFinished,
}: {
  role?: 'admin' | 'manager' | 'worker';
  archived?: boolean;
  handlers?: Handlers;
  onJobFinished?: () => void;
} = {}) {
  signInAs(session(role));
  const api = mockApi({
    'GET /api/code-jobs': listAnswers(jobList([done, failed])),
    ...handlers,
  });
  const view = renderPage(
    <ProductCodes productId={PRODUCT_ID} archived={archived} onJobFinished={onJobFinished} />,
    { route: `/products/${PRODUCT_ID}` },
  );
  return { ...api, ...view };
}

const lists = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/code-jobs');
const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST');
const jobsTable = () => screen.getByRole('table', { name: 'Code jobs' });
const rowOf = (text: string) =>
  within(jobsTable())
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(text))!;

afterEach(() => {
  vi.useRealTimers();
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Product codes', () => {
  it('lists the product’s jobs with lot, expiry, quantity, status, and the quota left', async () => {
    const { calls } = setup();
    await screen.findByRole('table', { name: 'Code jobs' });
    expect(lists(calls)[0]!.url.searchParams.get('product_id')).toBe(PRODUCT_ID);
    expect(
      screen.getByText(
        (_, el) =>
          el?.tagName === 'P' &&
          el.textContent === '4,875,000 of 5,000,000 codes left in your plan.',
      ),
    ).toBeInTheDocument();
    const doneRow = within(rowOf('L-2026/1'));
    expect(doneRow.getByText('Done')).toBeInTheDocument();
    expect(doneRow.getAllByText('120,000').length).toBeGreaterThan(0);
    expect(doneRow.getByText('120,000 codes')).toBeInTheDocument();
    expect(doneRow.getByText('Mar 31, 2027')).toBeInTheDocument();
    const failedRow = within(rowOf('Failed'));
    expect(failedRow.getByText('3,000 of 5,000 codes')).toBeInTheDocument();
    expect(failedRow.getByText('The database went away.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Newest first.
    const rows = within(jobsTable()).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('L-2026/1');
    expect(rows[1]).toHaveTextContent('Failed');
    // The lots, from the jobs.
    const lots = within(screen.getByRole('table', { name: 'Lots' }));
    expect(lots.getByText('L-2026/1')).toBeInTheDocument();
    expect(lots.getByText('Feb 1, 2026')).toBeInTheDocument();
    expect(lots.getByText('Mar 31, 2027')).toBeInTheDocument();
  });

  it('offers the CSV and ZIP of done and failed jobs as downloads', async () => {
    setup();
    await screen.findByRole('table', { name: 'Code jobs' });
    const csv = within(rowOf('L-2026/1')).getByRole('link', { name: /^CSV:/ });
    expect(csv).toHaveAttribute('href', '/api/code-jobs/job-done/codes.csv');
    expect(csv).toHaveAttribute('download');
    expect(csv).toHaveAccessibleName(/^CSV: 120,000 codes of lot L-2026\/1, /);
    expect(within(rowOf('L-2026/1')).getByRole('link', { name: /^ZIP:/ })).toHaveAttribute(
      'href',
      '/api/code-jobs/job-done/codes.zip',
    );
    expect(within(rowOf('Failed')).getByRole('link', { name: /^CSV:/ })).toHaveAttribute(
      'href',
      '/api/code-jobs/job-failed/codes.csv',
    );
  });

  it('shows a running job’s progress as a bar with counts, follows it every second and stops when it is done', async () => {
    fakeTimeouts();
    const { calls } = setup({
      handlers: {
        'GET /api/code-jobs': listAnswers(
          jobList([running(12_500), done]),
          jobList([running(500_000), done]),
          jobList([running(1_000_000), done]),
        ),
      },
    });
    await settle();
    const bar = screen.getByRole('progressbar', { name: 'Codes generated' });
    expect(bar).toHaveAttribute('aria-valuenow', '12500');
    expect(bar).toHaveAttribute('aria-valuemax', '1000000');
    expect(bar).toHaveAttribute('aria-valuetext', '12,500 of 1,000,000 codes');
    const row = within(rowOf('L7'));
    expect(row.getByText('12,500 of 1,000,000 codes')).toBeInTheDocument();
    expect(row.getByText('Running')).toBeInTheDocument();
    // No downloads while it runs.
    expect(row.queryByRole('link')).not.toBeInTheDocument();
    expect(lists(calls)).toHaveLength(1);

    await tick(1000);
    expect(lists(calls)).toHaveLength(2);
    expect(within(rowOf('L7')).getByText('500,000 of 1,000,000 codes')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '500000');

    await tick(1000);
    expect(lists(calls)).toHaveLength(3);
    expect(within(rowOf('L7')).getByText('1,000,000 codes')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(rowOf('L7')).getByRole('link', { name: /^CSV:/ })).toBeInTheDocument();

    // Nothing is running: no more calls.
    await tick(10_000);
    expect(lists(calls)).toHaveLength(3);
  });

  it('tells the page once when a job it saw running finishes, not for jobs done before', async () => {
    fakeTimeouts();
    const onJobFinished = vi.fn();
    setup({
      onJobFinished,
      handlers: {
        'GET /api/code-jobs': listAnswers(
          jobList([running(12_500), done]),
          jobList([running(500_000), done]),
          jobList([running(1_000_000), done]),
        ),
      },
    });
    await settle();
    expect(onJobFinished).not.toHaveBeenCalled();
    await tick(1000);
    expect(onJobFinished).not.toHaveBeenCalled();
    await tick(1000);
    expect(onJobFinished).toHaveBeenCalledTimes(1);
    await tick(10_000);
    expect(onJobFinished).toHaveBeenCalledTimes(1);
  });

  it('stops asking when the page goes', async () => {
    fakeTimeouts();
    const { calls, unmount } = setup({
      handlers: { 'GET /api/code-jobs': listAnswers(jobList([running(1)])) },
    });
    await settle();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    await tick(1000);
    expect(lists(calls)).toHaveLength(2);
    unmount();
    await tick(10_000);
    expect(lists(calls)).toHaveLength(2);
  });

  it('keeps the progress shown when a refresh fails, and tries again later', async () => {
    fakeTimeouts();
    let n = 0;
    const { calls } = setup({
      handlers: {
        'GET /api/code-jobs': () =>
          ++n === 2
            ? json(500, { error: 'Something went wrong.', code: 'internal' })
            : json(200, jobList([running(n * 10)])),
      },
    });
    await settle();
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    await tick(1000);
    expect(screen.getByText(/The progress could not be refreshed/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
    // After a failure the next try waits 2 s.
    await tick(1000);
    expect(lists(calls)).toHaveLength(2);
    await tick(1000);
    expect(lists(calls)).toHaveLength(3);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    expect(screen.queryByText(/The progress could not be refreshed/)).not.toBeInTheDocument();
  });

  it('starts a job: a toast, and the new job at once with its progress bar', async () => {
    const created = codeJob({
      id: 'job-new',
      status: 'queued',
      quantity: 120_000,
      generated: 0,
      lot: { number: 'L9', manufactured_on: '2026-05-01', expires_on: '2027-05-01' },
      created_at: '2026-05-02T10:00:00Z',
    });
    const { user, calls } = setup({
      handlers: {
        'GET /api/code-jobs': listAnswers(
          jobList([done]),
          jobList(
            [{ ...created, status: 'running', generated: 60_000 }, done],
            5_000_000,
            4_760_000,
          ),
        ),
        'POST /api/code-jobs': () => json(202, created),
      },
    });
    await screen.findByRole('table', { name: 'Code jobs' });
    const form = within(screen.getByRole('form', { name: 'Generate codes' }));
    expect(form.getByLabelText('Quantity')).toHaveAccessibleDescription(
      'Up to 4,880,000 codes left.',
    );
    await user.type(form.getByLabelText('Quantity'), '120000');
    await user.tab();
    expect(form.getByLabelText('Quantity')).toHaveValue('120,000');
    await user.type(form.getByLabelText('Lot number'), 'L9');
    await user.type(form.getByLabelText('Manufactured on'), '2026-05-01');
    await user.type(form.getByLabelText('Expires on'), '2027-05-01');
    // From here the poll's timer is faked; user-event (which waits on a
    // timer) gives way to a plain click.
    fakeTimeouts();
    act(() => fireEvent.click(form.getByRole('button', { name: 'Generate codes' })));
    await settle();

    expect(
      screen.getByText('Code job started: 120,000 codes are being generated.'),
    ).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({
      product_id: PRODUCT_ID,
      quantity: 120_000,
      lot: { number: 'L9', manufactured_on: '2026-05-01', expires_on: '2027-05-01' },
    });
    expect(posts(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    const rows = within(jobsTable()).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('L9');
    expect(within(rows[0]!).getByText('Queued')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '0 of 120,000 codes',
    );
    expect(
      screen.getByText(
        (_, el) =>
          el?.tagName === 'P' &&
          el.textContent === '4,760,000 of 5,000,000 codes left in your plan.',
      ),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Lots' })).getByText('L9')).toBeInTheDocument();
    // The form is empty again.
    expect(form.getByLabelText('Quantity')).toHaveValue('');

    // And it is followed.
    await tick(1000);
    expect(within(rowOf('L9')).getByText('60,000 of 120,000 codes')).toBeInTheDocument();
  });

  it('checks the form before sending', async () => {
    const { user, calls } = setup();
    const form = within(await screen.findByRole('form', { name: 'Generate codes' }));
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    expect(form.getByLabelText('Quantity')).toHaveAccessibleDescription(
      /Enter how many codes to generate\./,
    );
    await user.type(form.getByLabelText('Quantity'), '20,000,000');
    await user.type(form.getByLabelText('Lot number'), 'LOT #1');
    await user.type(form.getByLabelText('Manufactured on'), '2026-05-01');
    await user.type(form.getByLabelText('Expires on'), '2026-04-01');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    expect(form.getByLabelText('Quantity')).toHaveAccessibleDescription(
      /Generate at most 10,000,000 codes in one job\./,
    );
    expect(form.getByLabelText('Lot number')).toHaveAccessibleDescription(
      /A lot number cannot hold spaces, “#”\./,
    );
    expect(form.getByLabelText('Expires on')).toHaveAccessibleDescription(
      /The expiry date must be after the manufacturing date\./,
    );
    expect(posts(calls)).toHaveLength(0);
  });

  it('says when a lot number is one the product already has', async () => {
    const { user } = setup();
    const form = within(await screen.findByRole('form', { name: 'Generate codes' }));
    await user.type(form.getByLabelText('Lot number'), 'L-2026/1');
    expect(form.getByLabelText('Lot number')).toHaveAccessibleDescription(
      'Lot L-2026/1 exists (made Feb 1, 2026, expires Mar 31, 2027): its dates are kept, so leave the dates empty or give the same ones.',
    );
  });

  it('shows the code quota refusal as the server words it, and looks at the quota again', async () => {
    const message =
      "This job needs 9000000 codes, but only 4875000 remain in your plan's code quota. Generate fewer codes or ask for a higher quota.";
    const { user, calls } = setup({
      handlers: {
        'POST /api/code-jobs': () => json(403, { error: message, code: 'code_quota' }),
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Generate codes' }));
    await user.type(form.getByLabelText('Quantity'), '9000000');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    expect(await form.findByRole('alert')).toHaveTextContent(message);
    await waitFor(() => expect(lists(calls)).toHaveLength(2));
  });

  it('shows a lot conflict at the lot number, until the form changes', async () => {
    const message =
      'Lot L-2026/1 of this product already exists with other dates. Leave the dates out to use it, or use another lot number.';
    const { user } = setup({
      handlers: {
        'POST /api/code-jobs': () => json(409, { error: message, code: 'conflict' }),
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Generate codes' }));
    await user.type(form.getByLabelText('Quantity'), '10');
    await user.type(form.getByLabelText('Lot number'), 'L-2026/1');
    await user.type(form.getByLabelText('Expires on'), '2028-01-01');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    await waitFor(() =>
      expect(form.getByLabelText('Lot number')).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
    await user.clear(form.getByLabelText('Expires on'));
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it('shows a worker the jobs and their progress, but no form and no downloads', async () => {
    setup({ role: 'worker' });
    await screen.findByRole('table', { name: 'Code jobs' });
    expect(within(jobsTable()).queryAllByRole('link')).toHaveLength(0);
    expect(screen.queryByRole('form', { name: 'Generate codes' })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Lots' })).toBeInTheDocument();
  });

  it('gives a manager the form and the downloads', async () => {
    setup({ role: 'manager' });
    await screen.findByRole('table', { name: 'Code jobs' });
    expect(screen.getByRole('form', { name: 'Generate codes' })).toBeInTheDocument();
    expect(within(jobsTable()).getAllByRole('link', { name: /^(CSV|ZIP):/ })).toHaveLength(4);
  });

  it('has no form for an archived product, but still its jobs and downloads', async () => {
    setup({ archived: true });
    await screen.findByRole('table', { name: 'Code jobs' });
    expect(screen.queryByRole('form', { name: 'Generate codes' })).not.toBeInTheDocument();
    expect(screen.getByText(/This product is archived/)).toBeInTheDocument();
    expect(within(jobsTable()).getAllByRole('link', { name: /^(CSV|ZIP):/ })).toHaveLength(4);
  });

  it('says when the jobs cannot be loaded, and tries again', async () => {
    let n = 0;
    const { user } = setup({
      handlers: {
        'GET /api/code-jobs': () =>
          ++n === 1 ? json(500, { error: '', code: 'internal' }) : json(200, jobList([done])),
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The code jobs could not be loaded.',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Code jobs' })).toBeInTheDocument();
  });
});
