import { screen, waitFor, within } from '@testing-library/react';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { renderPage, signInAs } from '@/testing/render';
import { batchUpdate, clientSession, detail, UPDATE_ID } from '../test-data';
import { ManualBatchPage } from './manual-batch-page';

const JOB = '11111111-1111-4111-8111-111111111111';

function setup(jobs: () => Response) {
  signInAs(clientSession('clientB'));
  const api = mockApi({
    'GET /api/batch-updates': () => json(200, { updates: [] }),
    'GET /api/code-jobs': jobs,
    'POST /api/batch-updates': () => json(202, batchUpdate({ source: 'form', format: 'json' })),
    [`GET /api/batch-updates/${UPDATE_ID}`]: () =>
      json(200, detail({ source: 'form', status: 'valid', rows_read: 2, bytes_read: 1000 })),
  });
  return { ...api, ...renderPage(<ManualBatchPage />, { route: '/pmbi/batchUpdate' }) };
}

const forbidden = () =>
  json(403, { error: 'You do not have permission to do this.', code: 'forbidden' });

const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST');

async function fillBatch(user: ReturnType<typeof setup>['user'], gtin = '4006381333931') {
  await user.type(screen.getByLabelText('GTIN'), gtin);
  await user.type(screen.getByLabelText('Batch number'), 'B2026-01');
  await user.type(screen.getByLabelText('Manufacturing date'), '2026-01-01');
  await user.type(screen.getByLabelText('Expiry date'), '2028-01-01');
  await user.type(screen.getByLabelText('Licence number'), 'MH/25/1234');
}

describe('ManualBatchPage', () => {
  it('names each wrong field before sending anything', async () => {
    const { calls, user } = setup(forbidden);
    await screen.findByText('No batch updates yet.');
    await user.type(screen.getByLabelText('Serials'), '0000000000A');
    await user.type(screen.getByLabelText('GTIN'), '4006381333932');
    await user.type(screen.getByLabelText('Batch number'), 'B 1');
    await user.type(screen.getByLabelText('Manufacturing date'), '2026-03-01');
    await user.type(screen.getByLabelText('Expiry date'), '2026-02-01');
    await user.click(screen.getByRole('button', { name: 'Check' }));

    expect(screen.getByLabelText('GTIN')).toHaveAccessibleDescription(/check digit is wrong/);
    expect(screen.getByLabelText('Batch number')).toHaveAccessibleDescription(/cannot hold spaces/);
    expect(screen.getByLabelText('Expiry date')).toHaveAccessibleDescription(
      /after the manufacturing date/,
    );
    expect(screen.getByLabelText('Licence number')).toHaveAccessibleDescription(/Schedule H2/);
    expect(posts(calls)).toHaveLength(0);
  });

  it('asks for the job’s id when code jobs may not be listed (403), and sends the form as a check', async () => {
    const { calls, user } = setup(forbidden);
    const jobId = await screen.findByLabelText('Code job id');
    await screen.findByText(/The id \(a UUID\) of the code job/);
    await user.type(jobId, JOB);
    await user.type(screen.getByLabelText('First position'), '1');
    await user.type(screen.getByLabelText('Last position'), '2');
    await fillBatch(user);
    await user.click(screen.getByRole('button', { name: 'Check' }));

    expect(await screen.findByText(/No problems in 2 rows/)).toBeInTheDocument();
    const [sent] = posts(calls);
    expect(sent!.url.searchParams.get('dry_run')).toBe('true');
    expect(sent!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(sent!.body).toEqual({
      range: { code_job_id: JOB, first: 1, last: 2 },
      serials: [],
      gtin: '4006381333931',
      batch_number: 'B2026-01',
      manufacturing_date: '2026-01-01',
      expiry_date: '2028-01-01',
      licence_number: 'MH/25/1234',
    });
    // No error is shown for the code jobs it may not list.
    expect(screen.queryByText(/permission/)).not.toBeInTheDocument();
  });

  it('offers the code jobs in a list when it may list them, and applies', async () => {
    const { calls, user } = setup(() =>
      json(200, {
        jobs: [
          {
            id: JOB,
            product_id: 'p1',
            status: 'done',
            quantity: 100,
            generated: 100,
            gtin: '04006381333931',
            lot: { number: 'B2026-01' },
            resolver_base: 'https://id.example',
            created_at: '2026-11-20T10:00:00Z',
          },
        ],
        code_quota: 1000,
        qr_codes_remaining: 900,
      }),
    );
    const select = await screen.findByRole('combobox', { name: 'Code job' });
    expect(
      within(select).getByRole('option', {
        name: /GTIN 04006381333931 · batch B2026-01 · 100 codes/,
      }),
    ).toBeInTheDocument();
    await user.selectOptions(select, JOB);
    await user.type(screen.getByLabelText('First position'), '1');
    await user.type(screen.getByLabelText('Last position'), '100');
    await fillBatch(user);
    // Apply waits for a check of these very values.
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveAccessibleDescription(
      /Check the form first/,
    );
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText(/No problems in 2 rows/);
    expect(posts(calls)[0]!.url.searchParams.get('dry_run')).toBe('true');
    // A change after the check: Apply waits for another check.
    await user.type(screen.getByLabelText('Licence number'), 'X');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveAccessibleDescription(
      /changed since its check/,
    );
    await user.type(screen.getByLabelText('Licence number'), '{Backspace}');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Apply the batch data' });
    expect(dialog).toHaveTextContent('Applying gives 2 codes this batch data. Apply it now?');
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 codes' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(2));
    const sent = posts(calls)[1];
    expect(sent!.url.searchParams.get('dry_run')).toBe('false');
    expect((sent!.body as { range: unknown }).range).toEqual({
      code_job_id: JOB,
      first: 1,
      last: 100,
    });
  });

  it('shows the server’s 409 as it says it', async () => {
    const { user } = setup(forbidden);
    mockApi({
      'GET /api/batch-updates': () => json(200, { updates: [] }),
      'GET /api/code-jobs': forbidden,
      'POST /api/batch-updates': (call) =>
        call.url.searchParams.get('dry_run') === 'true'
          ? json(202, batchUpdate({ source: 'form', format: 'json' }))
          : json(409, {
              error: 'The same data was applied by an earlier update.',
              code: 'already_applied',
            }),
      [`GET /api/batch-updates/${UPDATE_ID}`]: () =>
        json(200, detail({ source: 'form', status: 'valid', rows_read: 1, bytes_read: 100 })),
    });
    await user.type(await screen.findByLabelText('Serials'), '0000000000A');
    await fillBatch(user);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText(/No problems in 1 row/);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.click(screen.getByRole('button', { name: 'Apply to 1 code' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      /Already applied.*The same data was applied by an earlier update\./,
    );
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Check' })).toBeEnabled();
  });
});
