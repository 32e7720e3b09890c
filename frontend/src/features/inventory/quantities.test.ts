import {
  compareDecimals,
  sumDecimals,
  formatMoney,
  formatQuantity,
  formatQuantityWithUnit,
  isZero,
  parseCurrency,
  parseDecimal,
  quantityError,
  unitCostError,
} from './quantities';

describe('parseDecimal', () => {
  it('normalises plain decimals', () => {
    expect(parseDecimal('12', 3)).toBe('12');
    expect(parseDecimal(' 12.5 ', 3)).toBe('12.5');
    expect(parseDecimal('007.250', 3)).toBe('7.250');
    expect(parseDecimal('.5', 3)).toBe('0.5');
    expect(parseDecimal('3.', 3)).toBe('3');
    expect(parseDecimal('0', 3)).toBe('0');
    expect(parseDecimal('2,5', 3)).toBe('2.5');
    expect(parseDecimal('123456789012345678.125', 3)).toBe('123456789012345678.125');
  });

  it('refuses signs, groups, exponents, text and too many places', () => {
    for (const text of [
      '',
      '-1',
      '+1',
      '1,000',
      '1.000.000',
      '1e3',
      'ten',
      '1.2345',
      '1 000',
      '.',
    ]) {
      expect(parseDecimal(text, 3), text).toBeNull();
    }
    expect(parseDecimal('1.2345', 4)).toBe('1.2345');
    expect(parseDecimal('1234', 3, 3)).toBeNull();
    expect(parseDecimal('0123', 3, 3)).toBe('123');
  });
});

describe('quantityError', () => {
  it('accepts positive quantities with up to three places', () => {
    expect(quantityError('1')).toBeNull();
    expect(quantityError('0.001')).toBeNull();
    expect(quantityError('12.125')).toBeNull();
  });

  it('says what is wrong', () => {
    expect(quantityError('', 'the quantity to move')).toBe('Enter the quantity to move.');
    expect(quantityError('0')).toBe('Enter a quantity above zero.');
    expect(quantityError('0.000')).toBe('Enter a quantity above zero.');
    expect(quantityError('-2')).toMatch(/positive quantity/);
    expect(quantityError('1.0001')).toMatch(/at most 3 decimal places/);
    expect(quantityError('a lot')).toMatch(/at most 3 decimal places/);
    expect(quantityError('999999999.999')).toBeNull();
    expect(quantityError('1000000000')).toBe('Enter a smaller quantity.');
  });
});

describe('unitCostError and parseCurrency', () => {
  it('takes zero and four places as a cost', () => {
    expect(unitCostError('0')).toBeNull();
    expect(unitCostError('12.345678')).toBeNull();
    expect(unitCostError('')).toBe('Enter the unit cost of the stock arriving.');
    expect(unitCostError('12.3456789')).toMatch(/at most 6 decimal places/);
    expect(unitCostError('1234567890123')).toMatch(/at most 6 decimal places/);
    expect(unitCostError('-1')).toMatch(/amount/);
  });

  it('reads three-letter codes in any case', () => {
    expect(parseCurrency(' eur ')).toBe('EUR');
    expect(parseCurrency('EURO')).toBeNull();
    expect(parseCurrency('E1R')).toBeNull();
  });
});

describe('isZero and compareDecimals', () => {
  it('compares exactly, however long the number', () => {
    expect(isZero('0')).toBe(true);
    expect(isZero('0.000')).toBe(true);
    expect(isZero('0.001')).toBe(false);
    expect(compareDecimals('10', '9.999')).toBeGreaterThan(0);
    expect(compareDecimals('9.5', '9.50')).toBe(0);
    expect(compareDecimals('0.1', '0.25')).toBeLessThan(0);
    expect(compareDecimals('123456789012345678.001', '123456789012345678')).toBeGreaterThan(0);
  });
});

describe('formatting', () => {
  it('groups quantities and drops trailing zeros, exactly', () => {
    const group = new Intl.NumberFormat().format(1000).replace(/\d/g, '');
    expect(formatQuantity('1234.500')).toBe(`1${group}234${(0.5).toLocaleString().slice(1, 2)}5`);
    expect(formatQuantity('0.001')).toBe(
      (0.001).toLocaleString(undefined, { maximumFractionDigits: 3 }),
    );
    expect(formatQuantity('90071992547409931')).toBe(
      new Intl.NumberFormat().format(90071992547409931n),
    );
    expect(formatQuantity(null)).toBe('—');
    expect(formatQuantity('n/a')).toBe('n/a');
    expect(formatQuantityWithUnit('2', 'kg')).toBe('2 kg');
    expect(formatQuantityWithUnit('2', 'each')).toBe('2');
  });

  it('writes money in its currency, to the cent at least', () => {
    const euros = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
    });
    expect(formatMoney('1234.5', 'EUR')).toBe(euros.format(1234.5));
    expect(formatMoney('0.1234', 'EUR')).toContain('1234');
    expect(formatMoney('12', '??')).toBe('12 ??');
  });
});

describe('sumDecimals', () => {
  it('adds exactly where floats would not', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['12.50', '0.125', '3'])).toBe('15.625');
    expect(sumDecimals(['90071992547409931.000001', '1'])).toBe('90071992547409932.000001');
    expect(sumDecimals(['-0.5', '0.25'])).toBe('-0.25');
    expect(sumDecimals([])).toBe('0');
  });
});
