import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { renderPage, signInAs } from '@/testing/render';
import type { PrintJob, PrintJobList } from '../api/labels-api';
import {
  PRODUCT_ID,
  codeJob,
  codeJobList,
  printJob,
  printJobList,
  productList,
  template,
} from '../test-data';
import { PrinterPage } from './printer-page';

const done = printJob({
  id: 'print-done',
  created_at: '2026-03-02T10:00:00Z',
});
const failed = printJob({
  id: 'print-failed',
  status: 'failed',
  format: 'zpl',
  printed: 12,
  output_bytes: undefined,
  error: 'The label store went away.',
  created_at: '2026-03-01T10:00:00Z',
});
const running = (printed: number, total = 10_000): PrintJob =>
  printJob({
    id: 'print-running',
    status: printed === total ? 'done' : 'running',
    total,
    printed,
    output_bytes: printed === total ? 2_000_000 : undefined,
    created_at: '2026-04-01T10:00:00Z',
  });

type Handlers = Parameters<typeof mockApi>[0];

/** Answers the list calls with `answers` in turn (the last one again after that). */
function listAnswers(...answers: PrintJobList[]) {
  let n = 0;
  return () => json(200, answers[Math.min(n++, answers.length - 1)]);
}

function setup({ handlers = {} }: { handlers?: Handlers } = {}) {
  signInAs();
  const api = mockApi({
    'GET /api/print-jobs': listAnswers(printJobList([done, failed])),
    'GET /api/label-templates': () =>
      json(200, { templates: [template({ id: 'tpl-1', name: 'Shelf label' })] }),
    'GET /api/code-jobs': () =>
      json(
        200,
        codeJobList([
          codeJob({ id: 'code-running', status: 'running', generated: 5, quantity: 10 }),
          codeJob({ id: 'code-done', lot: { number: 'L7' }, generated: 30 }),
        ]),
      ),
    'GET /api/product-handler': () =>
      json(200, productList([{ id: PRODUCT_ID, product_name: 'Green tea' }])),
    ...handlers,
  });
  const view = renderPage(<PrinterPage />, { route: '/printer/' });
  return { ...api, ...view };
}

const lists = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/print-jobs');
const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST');
const jobsTable = () => screen.getByRole('table', { name: 'Print jobs' });
const rows = () => within(jobsTable()).getAllByRole('row').slice(1);
const rowOf = (text: string) => rows().find((row) => row.textContent?.includes(text))!;

afterEach(() => {
  vi.useRealTimers();
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Printer', () => {
  it('lists the print jobs newest first, with template, code job, format and status', async () => {
    setup();
    await screen.findByRole('table', { name: 'Print jobs' });
    expect(rows()[0]).toHaveTextContent('Done');
    expect(rows()[1]).toHaveTextContent('Failed');
    const doneRow = within(rowOf('Done'));
    expect(doneRow.getByText('Shelf label')).toBeInTheDocument();
    expect(doneRow.getByText('Green tea')).toBeInTheDocument();
    expect(doneRow.getByText('lot L7 · 30 codes')).toBeInTheDocument();
    expect(doneRow.getByText('30 labels')).toBeInTheDocument();
    expect(doneRow.getByText('14.2 KB')).toBeInTheDocument();
    const failedRow = within(rowOf('Failed'));
    expect(failedRow.getByText('ZPL')).toBeInTheDocument();
    expect(failedRow.getByText('12 of 30 labels')).toBeInTheDocument();
    expect(failedRow.getByText('The label store went away.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('offers a done job’s file as a download, and a reprint of done and failed jobs', async () => {
    setup();
    await screen.findByRole('table', { name: 'Print jobs' });
    const link = within(rowOf('Done')).getByRole('link', { name: /^Download PDF:/ });
    expect(link).toHaveAttribute('href', '/api/print-jobs/print-done/output');
    expect(link).toHaveAttribute('download');
    expect(link).toHaveAccessibleName(/^Download PDF: 30 labels with Shelf label, /);
    expect(within(rowOf('Failed')).queryByRole('link')).not.toBeInTheDocument();
    expect(within(rowOf('Done')).getByRole('button', { name: /^Reprint:/ })).toBeEnabled();
    expect(within(rowOf('Failed')).getByRole('button', { name: /^Reprint:/ })).toBeEnabled();
  });

  it('shows a running job’s progress as a bar with counts, follows it every second and stops when it is done', async () => {
    fakeTimeouts();
    const { calls } = setup({
      handlers: {
        'GET /api/print-jobs': listAnswers(
          printJobList([running(2_500), done]),
          printJobList([running(7_000), done]),
          printJobList([running(10_000), done]),
        ),
      },
    });
    await settle();
    const bar = screen.getByRole('progressbar', { name: 'Labels printed' });
    expect(bar).toHaveAttribute('aria-valuenow', '2500');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '10000');
    expect(bar).toHaveAttribute('aria-valuetext', '2,500 of 10,000 labels');
    const row = within(rowOf('Printing'));
    expect(row.getByText('2,500 of 10,000 labels')).toBeInTheDocument();
    // Nothing to download or reprint while it prints.
    expect(row.queryByRole('link')).not.toBeInTheDocument();
    expect(row.queryByRole('button')).not.toBeInTheDocument();
    expect(lists(calls)).toHaveLength(1);

    await tick(1000);
    expect(lists(calls)).toHaveLength(2);
    expect(screen.getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '7,000 of 10,000 labels',
    );

    await tick(1000);
    expect(lists(calls)).toHaveLength(3);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(rows()[0]!).getByText('10,000 labels')).toBeInTheDocument();
    expect(within(rows()[0]!).getByRole('link', { name: /^Download PDF:/ })).toBeInTheDocument();

    // Nothing prints: no more calls.
    await tick(10_000);
    expect(lists(calls)).toHaveLength(3);
  });

  it('keeps the progress shown when a refresh fails, and tries again later', async () => {
    fakeTimeouts();
    let n = 0;
    const { calls, unmount } = setup({
      handlers: {
        'GET /api/print-jobs': () =>
          ++n === 2
            ? json(500, { error: 'Something went wrong.', code: 'internal' })
            : json(200, printJobList([running(n * 10)])),
      },
    });
    await settle();
    await tick(1000);
    expect(screen.getByText(/The progress could not be refreshed/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
    await tick(1000);
    expect(lists(calls)).toHaveLength(2);
    await tick(1000);
    expect(lists(calls)).toHaveLength(3);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
    expect(screen.queryByText(/The progress could not be refreshed/)).not.toBeInTheDocument();
    // And it stops when the page goes.
    unmount();
    await tick(10_000);
    expect(lists(calls)).toHaveLength(3);
  });

  it('starts a print job: a toast, and the job at once with its bar, then followed', async () => {
    const created = printJob({
      id: 'print-new',
      code_job_id: 'code-done',
      status: 'queued',
      printed: 0,
      output_bytes: undefined,
      format: 'zpl',
      created_at: '2026-05-01T10:00:00Z',
    });
    const { user, calls } = setup({
      handlers: {
        'GET /api/print-jobs': listAnswers(
          printJobList([done]),
          printJobList([{ ...created, status: 'running', printed: 12 }, done]),
        ),
        'POST /api/print-jobs': () => json(202, created),
      },
    });
    const form = within(await screen.findByRole('form', { name: 'New print job' }));
    const codeJobs = within(form.getByLabelText('Code job'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    // Done jobs only.
    expect(codeJobs).toHaveLength(2);
    expect(codeJobs[1]).toMatch(/^Green tea — lot L7 · 30 codes · /);
    expect(within(form.getByLabelText('Template')).getAllByRole('option')[1]).toHaveTextContent(
      'Shelf label — 70 × 37 mm, QR code, A4, 3 × 8',
    );
    await user.selectOptions(form.getByLabelText('Template'), 'tpl-1');
    await user.selectOptions(form.getByLabelText('Code job'), 'code-done');
    await user.click(form.getByRole('radio', { name: 'ZPL' }));
    fakeTimeouts();
    act(() => fireEvent.click(form.getByRole('button', { name: 'Start printing' })));
    await settle();
    expect(screen.getByText('Print job started: 30 labels to print.')).toBeInTheDocument();
    expect(posts(calls)[0]!.body).toEqual({
      template_id: 'tpl-1',
      code_job_id: 'code-done',
      format: 'zpl',
    });
    expect(posts(calls)[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(within(rows()[0]!).getByText('Queued')).toBeInTheDocument();
    expect(within(rows()[0]!).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '0 of 30 labels',
    );
    expect(form.getByLabelText('Template')).toHaveValue('');
    await tick(1000);
    expect(within(rows()[0]!).getByText('12 of 30 labels')).toBeInTheDocument();
  });

  it('checks the form before sending, and shows the server’s refusal as worded', async () => {
    const message = 'This code job is not done yet: print its codes once they are all generated.';
    const { user, calls } = setup({
      handlers: { 'POST /api/print-jobs': () => json(409, { error: message, code: 'conflict' }) },
    });
    const form = within(await screen.findByRole('form', { name: 'New print job' }));
    await user.click(form.getByRole('button', { name: 'Start printing' }));
    expect(form.getByLabelText('Template')).toHaveAccessibleDescription(
      /Choose the template to print with\./,
    );
    expect(form.getByLabelText('Code job')).toHaveAccessibleDescription(
      /Choose the code job whose codes to print\./,
    );
    expect(posts(calls)).toHaveLength(0);
    await user.selectOptions(form.getByLabelText('Template'), 'tpl-1');
    await user.selectOptions(form.getByLabelText('Code job'), 'code-done');
    await user.click(form.getByRole('button', { name: 'Start printing' }));
    expect(await form.findByRole('alert')).toHaveTextContent(message);
  });

  it('reprints a job: a toast, and the reprint at once at the top', async () => {
    const reprint = printJob({
      id: 'print-again',
      status: 'queued',
      printed: 0,
      reprint_of: 'print-done',
      output_bytes: undefined,
      created_at: '2026-05-01T10:00:00Z',
    });
    const { user, calls } = setup({
      handlers: { 'POST /api/print-jobs/print-done/reprint': () => json(202, reprint) },
    });
    await screen.findByRole('table', { name: 'Print jobs' });
    await user.click(within(rowOf('Done')).getByRole('button', { name: /^Reprint:/ }));
    expect(await screen.findByText('Reprint started: 30 labels to print.')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.url.pathname)).toEqual(['/api/print-jobs/print-done/reprint']);
    expect(rows()[0]).toHaveTextContent('Reprint');
    expect(within(rows()[0]!).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '0 of 30 labels',
    );
  });

  it('says when a reprint is refused', async () => {
    const { user } = setup({
      handlers: {
        'POST /api/print-jobs/print-done/reprint': () =>
          json(403, { error: 'You do not have permission to do this.', code: 'forbidden' }),
      },
    });
    await screen.findByRole('table', { name: 'Print jobs' });
    await user.click(within(rowOf('Done')).getByRole('button', { name: /^Reprint:/ }));
    expect(await screen.findByText('You do not have permission to do this.')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
  });

  it('says when there is nothing to print yet', async () => {
    setup({
      handlers: {
        'GET /api/label-templates': () => json(200, { templates: [] }),
        'GET /api/code-jobs': () => json(200, codeJobList([])),
        'GET /api/print-jobs': () => json(200, printJobList([])),
      },
    });
    const form = within(await screen.findByRole('form', { name: 'New print job' }));
    expect(form.getByLabelText('Template')).toHaveAccessibleDescription(
      'No templates yet: design one first.',
    );
    expect(form.getByRole('link', { name: 'design one' })).toHaveAttribute('href', '/print/lables');
    expect(form.getByLabelText('Code job')).toHaveAccessibleDescription(
      'No code job is done yet: generate codes on a product’s page first.',
    );
    expect(await screen.findByText('Nothing has been printed yet.')).toBeInTheDocument();
  });

  it('says when the print jobs cannot be loaded, and tries again', async () => {
    let n = 0;
    const { user } = setup({
      handlers: {
        'GET /api/print-jobs': () =>
          ++n === 1 ? json(500, { error: '', code: 'internal' }) : json(200, printJobList([done])),
      },
    });
    expect(await screen.findByText('The print jobs could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Print jobs' })).toBeInTheDocument(),
    );
  });
});
