import { screen, within } from '@testing-library/react';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { AudienceSections } from './audience-sections';

// jsdom has no canvas: each chart is its canvas element with its role and label.
vi.mock('react-chartjs-2', () => {
  const Chart = ({
    data: _data,
    options: _options,
    ...canvas
  }: { data: unknown; options: unknown } & Record<string, unknown>) => <canvas {...canvas} />;
  return { Line: Chart, Bar: Chart, Doughnut: Chart };
});

const range = { from: '2026-11-01', to: '2026-11-03' };

const sessions = {
  data: {
    ...range,
    sessions: 4,
    session_scans: 10,
    average_scans_per_session: 2.5,
    by_day: [
      { day: '2026-11-01', sessions: 1, session_scans: 2 },
      { day: '2026-11-03', sessions: 3, session_scans: 8 },
    ],
  },
};

const consumers = {
  data: {
    ...range,
    new_consumers: 3,
    returning_consumer_days: 2,
    consumer_days: 5,
    by_day: [
      { day: '2026-11-01', consumers: 2, new_consumers: 2, returning_consumers: 0 },
      { day: '2026-11-03', consumers: 3, new_consumers: 1, returning_consumers: 2 },
    ],
  },
};

type Handlers = Parameters<typeof mockApi>[0];

function setup(handlers: Handlers = {}) {
  signInAs(adminSession);
  const api = mockApi({
    'GET /api/sessions-data': () => json(200, sessions),
    'GET /api/users-data': () => json(200, consumers),
    ...handlers,
  });
  return { ...api, ...renderPage(<AudienceSections range={range} />) };
}

const query = (calls: RecordedCall[], path: string) =>
  Object.fromEntries(calls.find((c) => c.url.pathname === path)?.url.searchParams ?? []);

describe('Consumer sessions and consumers', () => {
  it('show the range’s sessions: totals, the chart (lazy) and its table', async () => {
    const { calls } = setup();
    const totals = within(await screen.findByRole('group', { name: 'Session figures' }));
    expect(query(calls, '/api/sessions-data')).toEqual(range);
    expect(totals.getByText('Sessions').nextSibling).toHaveTextContent('4');
    expect(totals.getByText('Scans in sessions').nextSibling).toHaveTextContent('10');
    expect(totals.getByText('Average scans per session').nextSibling).toHaveTextContent('2.5');
    expect(
      await screen.findByRole(
        'img',
        { name: /^Bar chart of consumer sessions per day, 4 sessions from / },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Consumer sessions per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[2]).toHaveTextContent(/Nov 2, 2026.*0.*0/);
    expect(rows[3]).toHaveTextContent(/Nov 3, 2026.*3.*8/);
  });

  it('show new against returning consumers per day, and say a consumer counts on each day', async () => {
    const { calls } = setup();
    const totals = within(await screen.findByRole('group', { name: 'Consumer figures' }));
    expect(query(calls, '/api/users-data')).toEqual(range);
    expect(totals.getByText('New consumers').nextSibling).toHaveTextContent('3');
    expect(totals.getByText('Returning consumer-days').nextSibling).toHaveTextContent('2');
    expect(totals.getByText('Consumer-days').nextSibling).toHaveTextContent('5');
    expect(
      screen.getByText(/A consumer who scans on three days counts on each of those days/),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole(
        'img',
        { name: /^Stacked bar chart of consumers per day .*: 3 new and 2 returning/ },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Consumers per day' })).getAllByRole(
      'row',
    );
    expect(rows[3]).toHaveTextContent(/Nov 3, 2026.*3.*1.*2/);
  });

  it('show each failure in its own card, with Try again', async () => {
    let fail = true;
    const { user } = setup({
      'GET /api/sessions-data': () =>
        fail ? json(500, { error: '', code: 'internal' }) : json(200, sessions),
    });
    const card = await screen.findByRole('region', { name: 'Consumer sessions' });
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The consumer sessions could not be loaded.',
    );
    expect(await screen.findByRole('group', { name: 'Consumer figures' })).toBeInTheDocument();
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: 'Session figures' })).toBeInTheDocument();
  });
});
