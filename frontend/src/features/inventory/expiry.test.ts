import { expiryState, expiryWarning, formatDay, today } from './expiry';

describe('expiryState', () => {
  const on = '2026-11-27';

  it('has no warning without a date, or far from it', () => {
    expect(expiryState(null, on)).toEqual({ kind: 'none' });
    expect(expiryState('not a day', on)).toEqual({ kind: 'none' });
    expect(expiryState('2027-06-01', on).kind).toBe('ok');
    expect(expiryState('2026-12-28', on)).toEqual({ kind: 'ok', days: 31 });
  });

  it('warns within 30 days, counted in calendar days across months and years', () => {
    expect(expiryState('2026-12-27', on)).toEqual({ kind: 'soon', days: 30 });
    expect(expiryState('2026-11-28', on)).toEqual({ kind: 'soon', days: 1 });
    expect(expiryState('2027-01-01', '2026-12-31')).toEqual({ kind: 'soon', days: 1 });
    expect(expiryState('2028-03-01', '2028-02-28')).toEqual({ kind: 'soon', days: 2 });
  });

  it('is still usable on the expiry day, and expired after it (as the server counts)', () => {
    expect(expiryState('2026-11-27', on)).toEqual({ kind: 'soon', days: 0 });
    expect(expiryState('2026-11-26', on)).toEqual({ kind: 'expired', days: -1 });
    expect(expiryState('2026-11-20', on)).toEqual({ kind: 'expired', days: -7 });
  });
});

describe('expiryWarning', () => {
  it('words each state', () => {
    expect(expiryWarning({ kind: 'none' })).toBeNull();
    expect(expiryWarning({ kind: 'ok', days: 90 })).toBeNull();
    expect(expiryWarning({ kind: 'soon', days: 1 })).toBe('Expires in 1 day');
    expect(expiryWarning({ kind: 'soon', days: 12 })).toBe('Expires in 12 days');
    expect(expiryWarning({ kind: 'soon', days: 0 })).toBe('Expires today');
    expect(expiryWarning({ kind: 'expired', days: -1 })).toBe('Expired 1 day ago');
    expect(expiryWarning({ kind: 'expired', days: -40 })).toBe('Expired 40 days ago');
  });
});

describe('today and formatDay', () => {
  it('reads the local calendar, not UTC', () => {
    expect(today(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(today(new Date(2026, 11, 31, 0, 1))).toBe('2026-12-31');
  });

  it('writes the day as it is, in any time zone', () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(2026, 2, 1),
    );
    expect(formatDay('2026-03-01')).toBe(expected);
    expect(formatDay(null)).toBe('—');
    expect(formatDay('soon')).toBe('soon');
  });
});
