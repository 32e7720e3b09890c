import { toBrandScans, totalGenerated } from './brand-scans';
import { daysOf, lastDays, rangeProblem } from './date-range';
import { brandScansFailureMessage } from './messages';
import { toCount } from './numbers';
import { countryLabel, mappable, placeLabel } from './places';
import { toScanAnalytics } from './scan-analytics';

describe('numbers (spec §9: coerced to numbers, default 0)', () => {
  it.each([
    [3, 3],
    ['12', 12],
    [' 7 ', 7],
    ['', 0],
    ['abc', 0],
    [null, 0],
    [undefined, 0],
    [Number.NaN, 0],
    [{}, 0],
  ])('%j → %j', (value, expected) => {
    expect(toCount(value)).toBe(expected);
  });
});

describe('brand scans', () => {
  it('reads the answer, coercing every number and sorting the codes by scans', () => {
    const data = toBrandScans({
      scan: [
        { id: 'a', product_id: 'p1', scan_count: '2' },
        { id: 'b', product_id: 'p2', scan_count: 9 },
        { id: 'c', product_id: 'p2' },
      ],
      locations: [
        {
          country: 'IN',
          country_name: 'India',
          region: 'MH',
          city: 'Mumbai',
          lat: 19,
          lon: 72,
          count: '4',
        },
        { country: '', region: '', city: '', count: 1 },
      ],
      product_scans: [{ product_id: 'p1', sum: '10' }],
      total_qr_generated: [
        { product_id: 'p1', count: '1000' },
        { product_id: 'p2', count: null },
      ],
      qr_codes_remaining: '4999000',
    });
    expect(data.scan.map((s) => [s.id, s.scanCount])).toEqual([
      ['b', 9],
      ['a', 2],
      ['c', 0],
    ]);
    expect(data.locations[0]).toEqual({
      country: 'IN',
      countryName: 'India',
      region: 'MH',
      city: 'Mumbai',
      lat: 19,
      lon: 72,
      scans: 4,
    });
    expect(data.locations[1]).toMatchObject({ lat: null, lon: null, scans: 1 });
    expect(data.productScans).toEqual([{ productId: 'p1', sum: 10 }]);
    expect(totalGenerated(data)).toBe(1000);
    expect(data.qrCodesRemaining).toBe(4_999_000);
  });

  it('treats a missing or malformed answer as no scans', () => {
    expect(toBrandScans(undefined)).toEqual({
      scan: [],
      locations: [],
      productScans: [],
      totalQrGenerated: [],
      qrCodesRemaining: 0,
    });
    expect(toBrandScans({ scan: 'x', locations: [null, 3] }).scan).toEqual([]);
  });

  it('shows the spec’s messages (§8)', () => {
    expect(
      brandScansFailureMessage({
        ok: false,
        kind: 'status',
        status: 400,
        body: { error: 'company_id is required', code: 'company_id_required' },
        message: 'company_id is required',
      }),
    ).toBe('company_id is required');
    expect(
      brandScansFailureMessage({
        ok: false,
        kind: 'status',
        status: 400,
        body: { error: 'from must be a date', code: 'invalid_input' },
        message: 'from must be a date',
      }),
    ).toBe('Failed to fetch brand scans');
    expect(
      brandScansFailureMessage({
        ok: false,
        kind: 'status',
        status: 500,
        body: null,
        message: 'x',
      }),
    ).toBe('Failed to fetch brand scans');
    expect(brandScansFailureMessage({ ok: false, kind: 'network', message: 'offline' })).toBe(
      'Failed to fetch brand scans',
    );
  });
});

describe('places', () => {
  it('labels known and unknown places', () => {
    const place = { country: 'IN', countryName: 'India', region: 'Maharashtra', city: 'Mumbai' };
    expect(placeLabel(place)).toBe('Mumbai, Maharashtra, India');
    expect(placeLabel({ country: 'IN', countryName: '', region: '', city: '' })).toBe('IN');
    expect(placeLabel({ country: '', countryName: '', region: '', city: '' })).toBe('Unknown');
    expect(countryLabel({ country: '', countryName: '' })).toBe('Unknown');
  });

  it('maps only places with real coordinates', () => {
    const base = { country: '', countryName: '', region: '', city: '', scans: 1 };
    expect(
      mappable([
        { ...base, lat: 1, lon: 2 },
        { ...base, lat: null, lon: 2 },
        { ...base, lat: 91, lon: 2 },
      ]),
    ).toHaveLength(1);
  });
});

describe('date ranges', () => {
  it('the last 30 days include today', () => {
    expect(lastDays(30, new Date(2026, 10, 24))).toEqual({ from: '2026-10-26', to: '2026-11-24' });
    expect(lastDays(1, new Date(2026, 0, 1))).toEqual({ from: '2026-01-01', to: '2026-01-01' });
  });

  it('explains a range that cannot be asked for', () => {
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-01' })).toBeNull();
    expect(rangeProblem({ from: '', to: '2026-11-01' })).toBe('Enter the first day of the range.');
    expect(rangeProblem({ from: '2026-11-01', to: '2026-02-30' })).toBe(
      'Enter the last day of the range.',
    );
    expect(rangeProblem({ from: '2026-11-02', to: '2026-11-01' })).toBe(
      'The first day must not be after the last day.',
    );
  });

  it('lists every day of a range, across a month’s end', () => {
    expect(daysOf({ from: '2026-10-30', to: '2026-11-02' })).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(daysOf({ from: '2026-11-02', to: '2026-11-01' })).toEqual([]);
  });
});

describe('scan analytics', () => {
  it('fills the days without scans and coerces numbers', () => {
    const data = toScanAnalytics(
      {
        from: '2026-11-01',
        to: '2026-11-03',
        totals: { scans: '12', first_scans: 10, repeat_scans: 2, bots: null },
        by_day: [{ day: '2026-11-02', scans: 12, first_scans: 10, repeat_scans: '2' }],
        by_product: [
          { product_id: 'p1', product_name: 'A', skuid: 'A-1', scans: 2 },
          { product_id: 'p2', product_name: 'B', skuid: 'B-1', scans: '10' },
        ],
        by_place: [{ country: '', country_name: '', region: '', city: '', scans: 12 }],
      },
      { from: '2026-10-01', to: '2026-10-31' },
    );
    expect(data.range).toEqual({ from: '2026-11-01', to: '2026-11-03' });
    expect(data.totals).toEqual({
      scans: 12,
      firstScans: 10,
      repeatScans: 2,
      genuine: 0,
      suspicious: 0,
      notRecognised: 0,
      bots: 0,
    });
    expect(data.byDay.map((d) => [d.day, d.scans, d.repeatScans])).toEqual([
      ['2026-11-01', 0, 0],
      ['2026-11-02', 12, 2],
      ['2026-11-03', 0, 0],
    ]);
    expect(data.byProduct.map((p) => p.productName)).toEqual(['B', 'A']);
    expect(data.byPlace[0]).toMatchObject({ lat: null, lon: null, scans: 12 });
  });

  it('uses the asked range when the answer names none', () => {
    const data = toScanAnalytics({}, { from: '2026-11-01', to: '2026-11-02' });
    expect(data.byDay).toHaveLength(2);
    expect(data.totals.scans).toBe(0);
  });
});
