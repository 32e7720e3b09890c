import {
  LIMIT_KEYS,
  changedLimits,
  limitError,
  limitValues,
  parseLimit,
  validateLimits,
} from './limits';

const acme = { userLimit: 10, productLimit: 200, codeQuota: 5_000_000 };

describe('plan limits', () => {
  it.each([
    ['userLimit', '1', 1],
    ['userLimit', '100000', 100_000],
    ['userLimit', ' 42 ', 42],
    ['productLimit', '0', 0],
    ['productLimit', '1000000', 1_000_000],
    ['codeQuota', '0', 0],
    ['codeQuota', '10000000000', 10_000_000_000],
    ['codeQuota', '007', 7],
  ] as const)('accepts %s = %j', (key, raw, value) => {
    expect(parseLimit(key, raw)).toBe(value);
    expect(limitError(key, raw)).toBeNull();
  });

  it.each([
    ['userLimit', '0'],
    ['userLimit', '100001'],
    ['productLimit', '-1'],
    ['productLimit', '1000001'],
    ['codeQuota', '10000000001'],
    ['codeQuota', '99999999999999999999999'],
    ['productLimit', ''],
    ['productLimit', '   '],
    ['productLimit', '1.5'],
    ['productLimit', '1e3'],
    ['productLimit', '1,000'],
    ['productLimit', 'ten'],
  ] as const)('refuses %s = %j', (key, raw) => {
    expect(parseLimit(key, raw)).toBeNull();
    expect(limitError(key, raw)).toMatch(/^Enter a whole number from /);
  });

  it('names each range, with thousands separators, in its message', () => {
    expect(limitError('userLimit', '0')).toBe('Enter a whole number from 1 to 100,000.');
    expect(limitError('productLimit', '-1')).toBe('Enter a whole number from 0 to 1,000,000.');
    expect(limitError('codeQuota', 'x')).toBe('Enter a whole number from 0 to 10,000,000,000.');
  });

  it('lets an optional field stay empty, but not hold a wrong value', () => {
    expect(limitError('codeQuota', '', { optional: true })).toBeNull();
    expect(limitError('codeQuota', '-5', { optional: true })).not.toBeNull();
  });

  it('finds an error per field', () => {
    expect(validateLimits(limitValues(acme))).toEqual({});
    expect(validateLimits({ userLimit: '0', productLimit: '5', codeQuota: '' })).toEqual({
      userLimit: 'Enter a whole number from 1 to 100,000.',
      codeQuota: 'Enter a whole number from 0 to 10,000,000,000.',
    });
  });

  it('pre-fills the form with plain digits', () => {
    expect(limitValues(acme)).toEqual({
      userLimit: '10',
      productLimit: '200',
      codeQuota: '5000000',
    });
  });

  it('sends only the limits that changed, and nothing when none did', () => {
    expect(changedLimits(acme, limitValues(acme))).toBeNull();
    expect(changedLimits(acme, { ...limitValues(acme), productLimit: ' 250' })).toEqual({
      productLimit: 250,
    });
    expect(
      changedLimits(acme, { userLimit: '3', productLimit: '0', codeQuota: '5000000' }),
    ).toEqual({ userLimit: 3, productLimit: 0 });
  });

  it('covers the three limits', () => {
    expect(LIMIT_KEYS).toEqual(['userLimit', 'productLimit', 'codeQuota']);
  });
});
