import { formatDate, formatDateTime } from './format';

describe('formatDateTime', () => {
  it('shows the day and the time, in the person’s own time zone', () => {
    const moment = new Date(2026, 10, 25, 14, 37);
    const expected = new Intl.DateTimeFormat(undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(moment);
    expect(formatDateTime(moment.toISOString())).toBe(expected);
  });

  it('tells apart two moments of one day, unlike formatDate', () => {
    const morning = new Date(2026, 10, 25, 9, 5).toISOString();
    const evening = new Date(2026, 10, 25, 18, 40).toISOString();
    expect(formatDate(morning)).toBe(formatDate(evening));
    expect(formatDateTime(morning)).not.toBe(formatDateTime(evening));
  });

  it('shows a dash when there is no value, and the raw value when it is no date', () => {
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('')).toBe('—');
    expect(formatDateTime('soon')).toBe('soon');
  });
});
