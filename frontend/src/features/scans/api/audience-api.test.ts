import { json, mockApi } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { useAppStore } from '@/stores/app-store';
import { loadConsumers, loadSessions } from './audience-api';

const range = { from: '2026-11-01', to: '2026-11-03' };

describe('loadSessions (the spec’s sessions slice)', () => {
  it('asks for the range and keeps every day, numbers coerced', async () => {
    signInAs(adminSession);
    const { calls } = mockApi({
      'GET /api/sessions-data': () =>
        json(200, {
          data: {
            ...range,
            sessions: '3',
            session_scans: 7,
            average_scans_per_session: 2.3333,
            by_day: [{ day: '2026-11-02', sessions: 3, session_scans: 'x' }],
          },
        }),
    });
    const loading = loadSessions(range);
    expect(useAppStore.getState().sessions.status).toBe('loading');
    await loading;
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual(range);
    expect(useAppStore.getState().sessions).toEqual({
      status: 'succeeded',
      error: null,
      data: {
        ...range,
        sessions: 3,
        sessionScans: 7,
        averageScansPerSession: 2.3333,
        byDay: [
          { day: '2026-11-01', sessions: 0, sessionScans: 0 },
          { day: '2026-11-02', sessions: 3, sessionScans: 0 },
          { day: '2026-11-03', sessions: 0, sessionScans: 0 },
        ],
      },
    });
  });

  it('keeps the server’s reason when it fails', async () => {
    signInAs(adminSession);
    mockApi({
      'GET /api/sessions-data': () =>
        json(400, { error: 'The range may span at most 366 days.', code: 'invalid_input' }),
    });
    await loadSessions(range);
    expect(useAppStore.getState().sessions).toMatchObject({
      status: 'failed',
      error: 'The range may span at most 366 days.',
    });
  });
});

describe('loadConsumers (the spec’s users-data, in the consumers slice)', () => {
  it('fills consumers and leaves the All Users slice alone', async () => {
    signInAs(adminSession);
    useAppStore
      .getState()
      .loadSucceeded('users', [{ id: 'u2', name: 'B', email: 'b@acme.test', role: 'worker' }]);
    mockApi({
      'GET /api/users-data': () =>
        json(200, {
          data: {
            ...range,
            new_consumers: 2,
            returning_consumer_days: '1',
            consumer_days: 3,
            by_day: [
              { day: '2026-11-01', consumers: 2, new_consumers: 2, returning_consumers: 0 },
              { day: '2026-11-03', consumers: 1, new_consumers: 0, returning_consumers: 1 },
            ],
          },
        }),
    });
    await loadConsumers(range);
    const { consumers, users } = useAppStore.getState();
    expect(consumers.status).toBe('succeeded');
    expect(consumers.data).toMatchObject({
      newConsumers: 2,
      returningConsumerDays: 1,
      consumerDays: 3,
    });
    expect(consumers.data?.byDay.map((d) => [d.day, d.consumers])).toEqual([
      ['2026-11-01', 2],
      ['2026-11-02', 0],
      ['2026-11-03', 1],
    ]);
    expect(users.data.map((u) => u.id)).toEqual(['u2']);
  });

  it('falls back to its own message when the server gives none', async () => {
    signInAs(adminSession);
    mockApi({ 'GET /api/users-data': () => json(500) });
    await loadConsumers(range);
    expect(useAppStore.getState().consumers.error).toBe('The consumers could not be loaded.');
  });
});
