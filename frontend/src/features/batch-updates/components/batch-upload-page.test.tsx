import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { renderPage, signInAs } from '@/testing/render';
import { APPLY_ID, batchUpdate, clientSession, detail, FakeXhr, UPDATE_ID } from '../test-data';
import { BatchUploadPage } from './batch-upload-page';

const CSV = 'code,gtin,batch_number,manufacturing_date,expiry_date,licence_number\n';

function setup(handlers: Parameters<typeof mockApi>[0] = {}) {
  signInAs(clientSession());
  FakeXhr.install();
  const api = mockApi({
    'GET /api/batch-updates': () => json(200, { updates: [] }),
    ...handlers,
  });
  const page = renderPage(
    <BatchUploadPage title="Batch reports" description="Upload batch reports." />,
    { route: '/clientA/reports' },
  );
  return { ...api, ...page };
}

function choose(name = 'batches.csv', text = CSV) {
  fireEvent.change(screen.getByLabelText('Batch file (CSV or XLSX)'), {
    target: { files: [new File([text], name, { type: 'text/csv' })] },
  });
}

const historyLoads = (calls: { method: string; url: URL }[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/batch-updates').length;

describe('BatchUploadPage', () => {
  it('documents the columns and links both templates', async () => {
    setup();
    const columns = screen.getByRole('table', { name: 'File columns' });
    for (const name of ['code', 'gtin', 'batch_number', 'manufacturing_date', 'expiry_date']) {
      expect(within(columns).getByText(name)).toBeInTheDocument();
    }
    expect(within(columns).getByText(/Schedule H2/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'CSV template' })).toHaveAttribute(
      'href',
      '/api/batch-updates/template.csv',
    );
    expect(screen.getByRole('link', { name: 'XLSX template' })).toHaveAttribute(
      'href',
      '/api/batch-updates/template.xlsx',
    );
    expect(await screen.findByText('No batch updates yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();
  });

  it('uploads with a real progress bar, follows the processing, then lists the problems', async () => {
    let polls = 0;
    const { calls, user } = setup({
      [`GET /api/batch-updates/${UPDATE_ID}`]: () => {
        polls += 1;
        return polls === 1
          ? json(200, detail({ status: 'validating', bytes_read: 500, rows_read: 12 }))
          : json(
              200,
              detail({
                status: 'invalid',
                bytes_read: 1000,
                rows_read: 2000,
                error_count: 1500,
                error_rows: 900,
                errors: [
                  { row: 0, column: '', reason: 'The file has no rows below its header.' },
                  {
                    row: 3,
                    column: 'code',
                    reason: 'No code of your organisation has this serial.',
                  },
                ],
              }),
            );
      },
    });
    await screen.findByText('No batch updates yet.');
    choose();
    await user.click(screen.getByRole('button', { name: 'Check file' }));

    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/batch-updates?dry_run=true');
    expect(xhr.headers['x-csrf-token']).toBe('csrf-test-token');
    expect(xhr.withCredentials).toBe(true);
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    // Both buttons wait while the request runs.
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByLabelText('Batch file (CSV or XLSX)')).toBeDisabled();

    act(() => xhr.progress(250, 1000));
    expect(screen.getByRole('progressbar', { name: 'Upload' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    act(() => xhr.progress(1000, 1000));
    expect(screen.getByRole('progressbar', { name: 'Upload' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );

    act(() => xhr.respond(202, batchUpdate()));
    const processing = await screen.findByRole('progressbar', { name: 'Processing' });
    await waitFor(() => expect(processing).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByText(/Checking rows: .* read · 12 rows checked/)).toBeInTheDocument();

    const problems = await screen.findByRole('table', { name: 'Problems' }, { timeout: 3000 });
    const rows = within(problems).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Whole file');
    expect(rows[1]).toHaveTextContent('3');
    expect(rows[1]).toHaveTextContent('code');
    expect(rows[1]).toHaveTextContent('No code of your organisation has this serial.');
    // Rows are counted as rows: several problems of one row make one row.
    expect(
      screen.getByText(/1,500 problems in 900 of 2,000 rows\. Nothing was changed/),
    ).toBeInTheDocument();
    expect(screen.getByText(/The first 2 of 1,500 problems are listed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the result (CSV)' })).toHaveAttribute(
      'href',
      `/api/batch-updates/${UPDATE_ID}/result.csv`,
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // A check that found problems leaves Apply off, and says why.
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveAccessibleDescription(
      /Apply stays off: this file has problems/,
    );
    expect(screen.getByRole('button', { name: 'Check file' })).toBeEnabled();
    // The history was asked for again when the update was queued and when it ended.
    await waitFor(() => expect(historyLoads(calls)).toBe(3));
  });

  it('applies only after a check without problems, and asks first, naming the codes', async () => {
    const { user } = setup({
      [`GET /api/batch-updates/${UPDATE_ID}`]: () =>
        json(200, detail({ status: 'valid', bytes_read: 1000, rows_read: 2 })),
      [`GET /api/batch-updates/${APPLY_ID}`]: () =>
        json(
          200,
          detail({
            id: APPLY_ID,
            dry_run: false,
            status: 'applied',
            bytes_read: 1000,
            rows_read: 2,
            rows_applied: 2,
            batches: [
              {
                gtin: '04006381333931',
                batch_number: 'B2026-01',
                manufactured_on: '2026-01-01',
                expires_on: '2028-01-01',
                licence_number: 'MH/25/1234',
                codes: 2,
              },
            ],
          }),
        ),
    });
    choose('batches.xlsx');
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription(/Check the file first/);
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() => FakeXhr.sent[0]!.respond(202, batchUpdate({ format: 'xlsx' })));
    expect(await screen.findByText(/No problems in 2 rows/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();

    // Apply asks first, naming how many codes change; Cancel sends nothing.
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Apply the batch data' });
    expect(dialog).toHaveTextContent('Applying gives 2 codes this batch data. Apply it now?');
    expect(dialog).toHaveTextContent(/All rows of batches\.xlsx are applied, or none/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(FakeXhr.sent).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.click(screen.getByRole('button', { name: 'Apply to 2 codes' }));
    expect(FakeXhr.sent).toHaveLength(2);
    const xhr = FakeXhr.sent[1]!;
    expect(xhr.url).toBe('/api/batch-updates?dry_run=false');
    act(() => xhr.respond(202, batchUpdate({ id: APPLY_ID, dry_run: false, format: 'xlsx' })));
    expect(await screen.findByText(/Applied: 2 codes given their batch data/)).toBeInTheDocument();
    const batches = screen.getByRole('table', { name: 'Batches assigned' });
    expect(batches).toHaveTextContent('B2026-01');
    expect(batches).toHaveTextContent('MH/25/1234');
    // Applied once: Apply is off until another file is chosen.
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
  });

  it('says a 409 already-applied file in the server’s words, and leaves no progress behind', async () => {
    const { calls, user } = setup({
      [`GET /api/batch-updates/${UPDATE_ID}`]: () =>
        json(200, detail({ status: 'valid', bytes_read: 1000, rows_read: 3 })),
    });
    await screen.findByText('No batch updates yet.');
    choose();
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() => FakeXhr.sent[0]!.respond(202, batchUpdate()));
    await screen.findByText(/No problems in 3 rows/);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.click(screen.getByRole('button', { name: 'Apply to 3 codes' }));
    act(() =>
      FakeXhr.sent[1]!.respond(409, {
        error: 'This content was already applied by the update of 2026-11-24 (batches.csv).',
        code: 'already_applied',
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/Already applied/);
    expect(alert).toHaveTextContent(
      'This content was already applied by the update of 2026-11-24 (batches.csv).',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Check file' })).toBeEnabled();
    // Loaded at first, and again when the check was queued and when it ended.
    await waitFor(() => expect(historyLoads(calls)).toBe(3));
  });

  it('explains 413 and 415, and a network failure', async () => {
    const { user } = setup();
    choose();
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() =>
      FakeXhr.sent[0]!.respond(413, { error: 'The file is over 200 MB.', code: 'too_large' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /too large.*The file is over 200 MB/,
    );

    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() =>
      FakeXhr.sent[1]!.respond(415, { error: 'The file is neither CSV nor XLSX.', code: 'x' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /not a CSV or XLSX file.*The file is neither CSV nor XLSX/,
    );

    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() => FakeXhr.sent[2]!.fail());
    expect(await screen.findByRole('alert')).toHaveTextContent(/network error/);
  });

  it('refuses a file of another type before sending it', async () => {
    setup();
    choose('batches.xls');
    expect(await screen.findByRole('alert')).toHaveTextContent(/not a \.csv or \.xlsx file/);
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('lists the history: who, when, file, kind, rows, outcome, problems and result', async () => {
    setup({
      'GET /api/batch-updates': () =>
        json(200, {
          updates: [
            batchUpdate({
              id: 'a1',
              status: 'applied',
              dry_run: false,
              rows_read: 3,
              rows_applied: 3,
              created_by_name: 'Ana <b>A</b>',
            }),
            batchUpdate({ id: 'a2', status: 'invalid', error_count: 4, rows_read: 9 }),
            batchUpdate({ id: 'a3', status: 'validating', source: 'form', file_name: '' }),
          ],
        }),
    });
    const table = await screen.findByRole('table', { name: 'Batch update history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Ana <b>A</b>');
    expect(rows[0]).toHaveTextContent('batches.csv');
    expect(rows[0]).toHaveTextContent('Apply');
    expect(rows[0]).toHaveTextContent('3 of 3 applied');
    expect(rows[0]).toHaveTextContent('Applied');
    expect(within(rows[0]!).getByRole('link', { name: /^Result of batches.csv/ })).toHaveAttribute(
      'href',
      '/api/batch-updates/a1/result.csv',
    );
    expect(rows[1]).toHaveTextContent('Check');
    expect(rows[1]).toHaveTextContent('Has problems');
    expect(rows[1]).toHaveTextContent('4');
    expect(rows[2]).toHaveTextContent('Manual entry');
    expect(within(rows[2]!).queryByRole('link')).not.toBeInTheDocument();
  });

  it('keeps following an update after a refresh failed, and says so meanwhile', async () => {
    let polls = 0;
    const { user } = setup({
      [`GET /api/batch-updates/${UPDATE_ID}`]: () => {
        polls += 1;
        return polls === 1
          ? json(500, { error: 'The server is busy.', code: 'internal' })
          : json(200, detail({ status: 'valid', rows_read: 4, bytes_read: 1000 }));
      },
    });
    choose();
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    act(() => FakeXhr.sent[0]!.respond(202, batchUpdate()));
    expect(
      await screen.findByText(/The progress could not be refreshed: The server is busy\./),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(/No problems in 4 rows/, undefined, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/could not be refreshed/)).not.toBeInTheDocument();
  });

  it('asks for the history again while one of its updates runs', async () => {
    let loads = 0;
    setup({
      'GET /api/batch-updates': () => {
        loads += 1;
        return json(200, {
          updates: [batchUpdate({ status: loads === 1 ? 'applying' : 'applied', dry_run: false })],
        });
      },
    });
    const table = await screen.findByRole('table', { name: 'Batch update history' });
    expect(table).toHaveTextContent('Applying');
    await waitFor(() => expect(table).toHaveTextContent('Applied'), { timeout: 15_000 });
    expect(loads).toBe(2);
  });
});
