import { isDay } from './validation';

describe('isDay', () => {
  it.each(['2028-02-29', '2026-01-01', '2026-12-31', '2027-04-30'])('accepts %s', (text) => {
    expect(isDay(text)).toBe(true);
  });

  it.each([
    '2027-02-29', // not a leap year
    '2027-13-01',
    '2027-00-10',
    '2027-04-31',
    '2027-01-00',
    '27-01-01',
    '2027-1-01',
    '2027-01-01T00:00',
    ' 2027-01-01',
    '',
  ])('refuses %o', (text) => {
    expect(isDay(text)).toBe(false);
  });
});
