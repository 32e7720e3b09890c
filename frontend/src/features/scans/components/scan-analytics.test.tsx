import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi, networkDown, type RecordedCall } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { useAppStore } from '@/stores/app-store';
import { lastDays } from '../date-range';
import { ScanAnalytics } from './scan-analytics';

// jsdom has no canvas for chart.js to draw on: each chart is its canvas
// element with the role and label our components give it (what these tests read).
vi.mock('react-chartjs-2', () => {
  const Chart = ({
    data: _data,
    options: _options,
    ...canvas
  }: { data: unknown; options: unknown } & Record<string, unknown>) => <canvas {...canvas} />;
  return { Line: Chart, Bar: Chart, Doughnut: Chart };
});

const workerSession: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, id: 'u-w', name: 'Wim Worker', role: 'worker' },
};

const range = lastDays(30);

const analytics = {
  from: range.from,
  to: range.to,
  totals: {
    scans: 120,
    first_scans: 100,
    repeat_scans: 20,
    genuine: 110,
    suspicious: 8,
    not_recognised: 2,
    bots: 5,
  },
  by_day: [
    {
      day: range.to,
      scans: 120,
      first_scans: 100,
      repeat_scans: 20,
      suspicious: 8,
      not_recognised: 2,
    },
  ],
  by_product: [
    { product_id: 'p1', product_name: 'Aspirin 100', skuid: 'ASP-100', scans: 100 },
    { product_id: 'p2', product_name: 'Tea', skuid: 'TEA-1', scans: 20 },
  ],
  by_place: [
    {
      country: 'IN',
      country_name: 'India',
      region: 'Maharashtra',
      city: 'Mumbai',
      lat: 19.07,
      lon: 72.87,
      scans: 90,
    },
    { country: '', country_name: '', region: '', city: '', scans: 30 },
  ],
};

const brandScans = {
  data: {
    scan: [
      { id: '0A1b2C3d4E5', product_id: 'p1', scan_count: 3 },
      { id: 'ZZZZZZZZZZ1', product_id: 'p-gone', scan_count: '2', consumers: 2, suspicious: true },
    ],
    locations: [],
    product_scans: [{ product_id: 'p1', sum: 10 }],
    total_qr_generated: [
      { product_id: 'p1', count: 1000 },
      { product_id: 'p2', count: '500' },
    ],
    qr_codes_remaining: 4_998_500,
  },
};

const settings = {
  suspicious_scan_count: 5,
  suspicious_distance_km: 500,
  suspicious_window_hours: 24,
};

const sessionsData = {
  data: {
    from: range.from,
    to: range.to,
    sessions: 4,
    session_scans: 10,
    average_scans_per_session: 2.5,
    by_day: [{ day: range.to, sessions: 4, session_scans: 10 }],
  },
};

const usersData = {
  data: {
    from: range.from,
    to: range.to,
    new_consumers: 3,
    returning_consumer_days: 2,
    consumer_days: 5,
    by_day: [{ day: range.to, consumers: 5, new_consumers: 3, returning_consumers: 2 }],
  },
};

type Handlers = Parameters<typeof mockApi>[0];

/** What the rest of the dashboard's scans section asks for (its own tests are elsewhere). */
const otherHandlers: Handlers = {
  'GET /api/sessions-data': () => json(200, sessionsData),
  'GET /api/users-data': () => json(200, usersData),
  'GET /api/reviews': () => json(200, { reviews: [] }),
};

function setup(handlers: Handlers = {}, session: SessionInfo = adminSession) {
  signInAs(session);
  const api = mockApi({
    'GET /api/scan-analytics': () => json(200, analytics),
    'GET /api/brand-scans': () => json(200, brandScans),
    'GET /api/scan-settings': () => json(200, settings),
    ...otherHandlers,
    ...handlers,
  });
  return { ...api, ...renderPage(<ScanAnalytics />) };
}

const query = (call: RecordedCall | undefined) => Object.fromEntries(call?.url.searchParams ?? []);
const callsTo = (calls: RecordedCall[], path: string) =>
  calls.filter((c) => c.url.pathname === path);

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Scan analytics', () => {
  it('asks for the last 30 days and shows the totals, charts with their tables, places and codes', async () => {
    const { calls } = setup();
    const totals = await screen.findByLabelText('Totals');
    expect(query(callsTo(calls, '/api/scan-analytics')[0])).toEqual(range);
    expect(query(callsTo(calls, '/api/brand-scans')[0])).toEqual(range);
    const t = within(totals);
    expect(t.getByText('Scans').nextSibling).toHaveTextContent('120');
    expect(t.getByText('First scans').nextSibling).toHaveTextContent('100');
    expect(t.getByText('20 repeat scans')).toBeInTheDocument();
    expect(t.getByText('Suspicious').nextSibling).toHaveTextContent('8');
    expect(t.getByText('Not recognised').nextSibling).toHaveTextContent('2');
    expect(t.getByText('Bots').nextSibling).toHaveTextContent('5');

    // Charts (lazy) with their text alternatives.
    expect(
      await screen.findByLabelText(/^Line chart of scans per day, 120 scans from /, undefined, {
        timeout: 15_000,
      }),
    ).toBeInTheDocument();
    expect(
      await screen.findByLabelText('Doughnut chart: 100 first scans and 20 repeat scans.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByLabelText('Bar chart of scans per product: Aspirin 100 100, Tea 20.'),
    ).toHaveAttribute('role', 'img');
    const perProduct = screen.getByLabelText('Scans per product', { selector: 'table' });
    expect(within(perProduct).getAllByRole('row')[1]).toHaveTextContent('Aspirin 100');
    expect(
      screen.getByLabelText('Scans per day', { selector: 'table' }).querySelectorAll('tbody tr'),
    ).toHaveLength(30);

    // The map: a point per place with coordinates; the table lists every place.
    const map = (
      await screen.findByText('World map of scans', undefined, { timeout: 15_000 })
    ).closest('svg')!;
    expect(map).toHaveAttribute('role', 'img');
    expect(map.querySelectorAll('circle')).toHaveLength(1);
    expect(map.querySelector('circle title')).toHaveTextContent(
      'Mumbai, Maharashtra, India: 90 scans',
    );
    const places = within(screen.getByLabelText('Scans by place', { selector: 'table' }));
    expect(places.getAllByRole('row')[1]).toHaveTextContent(/India.*Maharashtra.*Mumbai.*90/);
    expect(places.getAllByRole('row')[2]).toHaveTextContent(/Unknown.*Unknown.*Unknown.*30/);

    // The most scanned codes, named from the analytics where the product is known.
    const codes = within(await screen.findByLabelText('Most scanned codes', { selector: 'table' }));
    expect(codes.getAllByRole('row')[1]).toHaveTextContent(/0A1b2C3d4E5.*Aspirin 100.*3/);
    expect(codes.getAllByRole('row')[2]).toHaveTextContent(/ZZZZZZZZZZ1.*p-gone.*2/);
    expect(screen.getByText('Codes generated').nextSibling).toHaveTextContent('1,500');
    expect(screen.getByText('QR codes left in your plan').nextSibling).toHaveTextContent(
      '4,998,500',
    );
    expect(useAppStore.getState().brandscans.status).toBe('succeeded');
  });

  it('shows grey blocks while loading, never numbers', async () => {
    let answer!: (r: Response) => void;
    const pending = () => new Promise<Response>(() => {});
    setup({
      'GET /api/scan-analytics': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/sessions-data': pending,
      'GET /api/users-data': pending,
    });
    expect(await screen.findByText('Loading scan analytics…')).toBeInTheDocument();
    expect(screen.queryByLabelText('Totals')).not.toBeInTheDocument();
    expect(document.querySelectorAll('.stat__value')).toHaveLength(0);
    answer(json(200, analytics));
    expect(await screen.findByLabelText('Totals')).toBeInTheDocument();
  });

  it('says honestly that there are no scans yet', async () => {
    setup({
      'GET /api/scan-analytics': () =>
        json(200, {
          from: range.from,
          to: range.to,
          totals: {},
          by_day: [],
          by_product: [],
          by_place: [],
        }),
      'GET /api/brand-scans': () =>
        json(200, { data: { scan: [], qr_codes_remaining: 5_000_000 } }),
      'GET /api/sessions-data': () => json(200, { data: { from: range.from, to: range.to } }),
      'GET /api/users-data': () => json(200, { data: { from: range.from, to: range.to } }),
    });
    expect(await screen.findByText(/^No scans yet between/)).toHaveTextContent(
      'Scans appear here when consumers open your codes’ links.',
    );
    expect(await screen.findByText('No code has been scanned yet.')).toBeInTheDocument();
    expect(await screen.findByText('No consumer sessions in this range.')).toBeInTheDocument();
    expect(await screen.findByText('No consumers scanned in this range.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /chart/ })).not.toBeInTheDocument();
  });

  it.each([
    [
      'a 400 saying company_id is required',
      () => json(400, { error: 'company_id is required', code: 'company_id_required' }),
      'company_id is required',
    ],
    [
      'a server error',
      () => json(500, { error: 'boom', code: 'internal' }),
      'Failed to fetch brand scans',
    ],
    ['no answer', () => networkDown(), 'Failed to fetch brand scans'],
  ])('on %s the codes card shows the spec’s message', async (_, respond, message) => {
    setup({ 'GET /api/brand-scans': respond });
    const card = await screen.findByRole('region', { name: 'Most scanned codes' });
    expect(await within(card).findByRole('alert')).toHaveTextContent(message);
    expect(useAppStore.getState().brandscans).toMatchObject({ status: 'failed', error: message });
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the server’s reason when the analytics fail, and tries again', async () => {
    let fail = true;
    const { user } = setup({
      'GET /api/scan-analytics': () =>
        fail
          ? json(400, { error: 'The range may span at most 366 days.', code: 'invalid_input' })
          : json(200, analytics),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The range may span at most 366 days.',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Totals')).toBeInTheDocument();
  });

  it('asks again for another period, and checks a custom range before sending', async () => {
    const { user, calls } = setup();
    await screen.findByLabelText('Totals');
    const form = within(screen.getByRole('form', { name: 'Date range' }));
    await user.selectOptions(form.getByLabelText('Period'), 'Last 7 days');
    await waitFor(() => expect(callsTo(calls, '/api/scan-analytics')).toHaveLength(2));
    expect(query(callsTo(calls, '/api/scan-analytics')[1])).toEqual(lastDays(7));
    expect(query(callsTo(calls, '/api/brand-scans')[1])).toEqual(lastDays(7));

    await user.clear(form.getByLabelText('From'));
    await user.type(form.getByLabelText('From'), '2026-05-02');
    await user.clear(form.getByLabelText('To'));
    await user.type(form.getByLabelText('To'), '2026-05-01');
    await user.click(form.getByRole('button', { name: 'Show' }));
    expect(form.getByRole('alert')).toHaveTextContent(
      'The first day must not be after the last day.',
    );
    expect(callsTo(calls, '/api/scan-analytics')).toHaveLength(2);
    expect(form.getByLabelText('Period')).toHaveValue('custom');

    await user.clear(form.getByLabelText('To'));
    await user.type(form.getByLabelText('To'), '2026-05-31');
    await user.click(form.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(callsTo(calls, '/api/scan-analytics')).toHaveLength(3));
    expect(query(callsTo(calls, '/api/scan-analytics')[2])).toEqual({
      from: '2026-05-02',
      to: '2026-05-31',
    });
  });
});

describe('Suspicious-scan rules', () => {
  it('admins change them, checked first against the server’s ranges', async () => {
    const { user, calls } = setup({
      'PUT /api/scan-settings': (call) => json(200, call.body),
    });
    const form = await screen.findByRole('form', { name: 'Suspicious-scan rules' });
    const f = within(form);
    expect(
      screen.getByText(
        /more than 5 different consumers scan it, or when two different consumers scan it more than 500 km apart within 24 hours/,
      ),
    ).toBeInTheDocument();
    expect(f.getByLabelText('Different consumers per code')).toHaveValue('5');

    await user.clear(f.getByLabelText('Distance between two consumers’ scans (km)'));
    await user.type(f.getByLabelText('Distance between two consumers’ scans (km)'), '20001');
    await user.clear(f.getByLabelText('Within (hours)'));
    await user.click(f.getByRole('button', { name: 'Save rules' }));
    expect(
      f.getByLabelText('Distance between two consumers’ scans (km)'),
    ).toHaveAccessibleDescription(
      expect.stringContaining('Enter a whole number from 1 to 20,000.'),
    );
    expect(f.getByLabelText('Within (hours)')).toHaveAccessibleDescription(
      expect.stringContaining('Enter a whole number from 1 to 720.'),
    );
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    await user.clear(f.getByLabelText('Distance between two consumers’ scans (km)'));
    await user.type(f.getByLabelText('Distance between two consumers’ scans (km)'), '800');
    await user.type(f.getByLabelText('Within (hours)'), '48');
    await user.click(f.getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByText('Suspicious-scan rules saved.')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      suspicious_scan_count: 5,
      suspicious_distance_km: 800,
      suspicious_window_hours: 48,
    });
    expect(put.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(screen.getByText(/more than 800 km apart within 48 hours/)).toBeInTheDocument();
  });

  it('shows the server’s refusal in the form', async () => {
    const { user } = setup({
      'PUT /api/scan-settings': () =>
        json(400, {
          error: 'suspicious_scan_count must be between 1 and 1000.',
          code: 'invalid_input',
        }),
    });
    const form = await screen.findByRole('form', { name: 'Suspicious-scan rules' });
    await user.click(within(form).getByRole('button', { name: 'Save rules' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'suspicious_scan_count must be between 1 and 1000.',
    );
  });

  it('others read them but get no form', async () => {
    setup({}, workerSession);
    expect(await screen.findByText(/more than 5 different consumers/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Suspicious-scan rules' })).not.toBeInTheDocument();
  });
});

describe('Most scanned codes', () => {
  it('are named from the product list, which the page asks to load', async () => {
    signInAs(adminSession);
    mockApi({
      'GET /api/scan-analytics': () => json(200, analytics),
      'GET /api/brand-scans': () => json(200, brandScans),
      'GET /api/scan-settings': () => json(200, settings),
      ...otherHandlers,
    });
    const loadProductNames = vi.fn(() => {
      useAppStore.getState().loadSucceeded('products', {
        products: [
          {
            id: 'p-gone',
            product_name: 'Chamomile 20',
            skuid: 'CH-20',
            gtin: '04006381333931',
            category: '',
            image_urls: [],
            metadata: {},
            attributes: [],
            product_description: '',
            requires_inspection: false,
            unit: 'each',
            created_at: '2025-01-01T00:00:00Z',
            updated_at: '2025-01-01T00:00:00Z',
          },
        ],
        maxProducts: 10,
        addedProducts: 1,
        limitKnown: true,
      });
      return Promise.resolve();
    });
    renderPage(<ScanAnalytics loadProductNames={loadProductNames} />);
    const codes = within(await screen.findByLabelText('Most scanned codes', { selector: 'table' }));
    expect(codes.getAllByRole('row')[2]).toHaveTextContent(/ZZZZZZZZZZ1.*Chamomile 20.*2/);
    expect(loadProductNames).toHaveBeenCalledTimes(1);
  });

  it('flags suspicious codes and opens a code’s scan history', async () => {
    const { user, calls } = setup({
      'GET /api/code-scans/ZZZZZZZZZZ1': () =>
        json(200, {
          id: 'ZZZZZZZZZZ1',
          product_id: 'p-gone',
          product_name: 'Chamomile <b>20</b>',
          scan_count: 2,
          consumers: 2,
          suspicious: true,
          first_scanned_at: '2026-11-20T10:00:00Z',
          last_scanned_at: '2026-11-21T10:00:00Z',
          scans: [
            {
              scanned_at: '2026-11-21T10:00:00Z',
              verdict: 'suspicious',
              first_scan: false,
              consumer_first: true,
              consumer: 'Consumer 2',
              country: 'IN',
              country_name: 'India',
              region: 'Maharashtra',
              city: 'Mumbai',
              location_source: 'ip',
            },
            {
              scanned_at: '2026-11-20T10:00:00Z',
              verdict: 'genuine',
              first_scan: true,
              consumer_first: true,
              consumer: 'Consumer 1',
              country: '',
              country_name: '',
              region: '',
              city: '',
              location_source: 'none',
            },
          ],
        }),
    });
    const codes = within(await screen.findByLabelText('Most scanned codes', { selector: 'table' }));
    expect(codes.getAllByRole('row')[1]).toHaveTextContent(/0A1b2C3d4E5.*Genuine/);
    expect(codes.getAllByRole('row')[2]).toHaveTextContent(/ZZZZZZZZZZ1.*2.*2.*Suspicious/);
    await user.click(codes.getByRole('button', { name: 'Scan history of code ZZZZZZZZZZ1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Scans of code ZZZZZZZZZZ1' }));
    const rows = (
      await dialog.findByLabelText('Scans of code ZZZZZZZZZZ1', { selector: 'table' })
    ).querySelectorAll('tbody tr');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(
      /Mumbai, Maharashtra, India.*First by this consumer.*Consumer 2.*Suspicious/,
    );
    expect(rows[1]).toHaveTextContent(/Unknown.*First scan.*Consumer 1.*Genuine/);
    expect(dialog.getByText(/Chamomile <b>20<\/b>/)).toBeInTheDocument();
    expect(callsTo(calls, '/api/code-scans/ZZZZZZZZZZ1')).toHaveLength(1);
  });
});
