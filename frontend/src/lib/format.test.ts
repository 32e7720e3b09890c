import { formatBytes, formatDate, formatDateTime } from './format';

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

describe('formatBytes', () => {
  it('gives file sizes for people, 1 KB being 1,024 bytes', () => {
    const one = (n: number) =>
      new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(n);
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(812)).toBe('812 bytes');
    expect(formatBytes(1023)).toBe(`${new Intl.NumberFormat().format(1023)} bytes`);
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe(`${one(1.5)} KB`);
    expect(formatBytes(14_540)).toBe(`${one(14.2)} KB`);
    expect(formatBytes(3_250_000)).toBe(`${one(3.1)} MB`);
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB');
    expect(formatBytes(3 * 1024 ** 4)).toBe(`${new Intl.NumberFormat().format(3072)} GB`);
  });
});
