import { screen, within } from '@testing-library/react';
import { json, mockApi } from '@/testing/mock-api';
import { renderPage, signInAs } from '@/testing/render';
import { batchUpdate, clientSession, detail, UPDATE_ID } from '../test-data';
import { BatchReports } from './batch-reports';

describe('BatchReports', () => {
  it('lists every upload with its result, and shows one’s problems on Details', async () => {
    signInAs(clientSession());
    const { calls, user } = {
      ...mockApi({
        'GET /api/batch-updates': () =>
          json(200, {
            updates: [
              batchUpdate({
                status: 'invalid',
                error_count: 3,
                error_rows: 2,
                rows_read: 2,
                file_name: '<i>march</i>.csv',
              }),
              batchUpdate({ id: 'running', status: 'validating' }),
            ],
          }),
        [`GET /api/batch-updates/${UPDATE_ID}`]: () =>
          json(
            200,
            detail({
              status: 'invalid',
              error_count: 3,
              error_rows: 2,
              rows_read: 2,
              errors: [
                {
                  row: 2,
                  column: 'batch_number',
                  reason: 'batch_number OTHER1 differs from lot PCM2611.',
                },
              ],
            }),
          ),
      }),
      ...renderPage(<BatchReports />, { route: '/clientA/reports' }),
    };
    const table = await screen.findByRole('table', { name: 'Batch update history' });
    const [, done, running] = within(table).getAllByRole('row');
    expect(done).toHaveTextContent('<i>march</i>.csv');
    expect(within(done!).getByRole('link', { name: /^Result of/ })).toHaveAttribute(
      'href',
      `/api/batch-updates/${UPDATE_ID}/result.csv`,
    );
    // A running update has no result yet.
    expect(within(running!).queryByRole('button', { name: /^Details/ })).not.toBeInTheDocument();
    await user.click(within(done!).getByRole('button', { name: /^Details of/ }));
    expect(await screen.findByText(/3 problems in 2 of 2 rows/)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Problems' })).toHaveTextContent(
      'batch_number OTHER1 differs from lot PCM2611.',
    );
    expect(calls.some((c) => c.url.pathname === `/api/batch-updates/${UPDATE_ID}`)).toBe(true);
    // The spec's "shows a file uploader", under the reports.
    const upload = screen.getByRole('region', { name: 'Upload a batch file' });
    expect(within(upload).getByRole('button', { name: 'Check file' })).toBeInTheDocument();
  });
});
