import {
  emptyCodeJobForm,
  fieldOfServerMessage,
  formatQuantityInput,
  newCodeJobBody,
  parseQuantity,
  validateCodeJobForm,
  type CodeJobFormValues,
} from './code-job-form';

const valid = (overrides: Partial<CodeJobFormValues> = {}): CodeJobFormValues => ({
  ...emptyCodeJobForm(),
  quantity: '120000',
  ...overrides,
});

describe('parseQuantity', () => {
  it('reads plain digits and digits grouped by threes', () => {
    expect(parseQuantity('120000')).toBe(120_000);
    expect(parseQuantity(' 120,000 ')).toBe(120_000);
    expect(parseQuantity('1,000,000')).toBe(1_000_000);
    expect(parseQuantity('1 000 000')).toBe(1_000_000);
    expect(parseQuantity('1\u202f000')).toBe(1000);
    expect(parseQuantity('1.000.000')).toBe(1_000_000);
    expect(parseQuantity('0')).toBe(0);
  });

  it('refuses anything else: decimals, signs, mixed or misplaced separators', () => {
    for (const text of [
      '',
      '1.5',
      '-5',
      '+5',
      '1e6',
      '12,50',
      '1,000.000',
      '1,0000',
      'ten',
      '1 2',
    ]) {
      expect(parseQuantity(text), text).toBeNull();
    }
  });

  it('formats what it can read, and leaves the rest as typed', () => {
    expect(formatQuantityInput('120000')).toBe('120,000');
    expect(formatQuantityInput('1 000 000')).toBe('1,000,000');
    expect(formatQuantityInput('1.5')).toBe('1.5');
  });
});

describe('validateCodeJobForm', () => {
  it('accepts a quantity alone, and a lot with its dates', () => {
    expect(validateCodeJobForm(valid())).toEqual({});
    expect(
      validateCodeJobForm(
        valid({
          lot_number: 'L-2026/11.A',
          manufactured_on: '2026-01-31',
          expires_on: '2027-01-31',
        }),
      ),
    ).toEqual({});
  });

  it('checks the quantity as the server does: 1 to 10,000,000', () => {
    expect(validateCodeJobForm(valid({ quantity: '' })).quantity).toBe(
      'Enter how many codes to generate.',
    );
    expect(validateCodeJobForm(valid({ quantity: '2.5' })).quantity).toBe(
      'Enter a whole number, such as 120,000.',
    );
    expect(validateCodeJobForm(valid({ quantity: '0' })).quantity).toBe(
      'Generate at least 1 code.',
    );
    expect(validateCodeJobForm(valid({ quantity: '10,000,000' })).quantity).toBeUndefined();
    expect(validateCodeJobForm(valid({ quantity: '10,000,001' })).quantity).toBe(
      'Generate at most 10,000,000 codes in one job.',
    );
    expect(validateCodeJobForm(valid({ quantity: '1' })).quantity).toBeUndefined();
  });

  it('allows lot numbers of 1 to 20 characters of GS1 character set 82 only', () => {
    const lot = (lot_number: string) => validateCodeJobForm(valid({ lot_number })).lot_number;
    expect(lot(`!"%&'()*+,-./:;<=>?_`)).toBeUndefined();
    expect(lot('A'.repeat(20))).toBeUndefined();
    expect(lot('  L1  ')).toBeUndefined(); // trimmed, as sent
    expect(lot('A'.repeat(21))).toBe('Use at most 20 characters.');
    expect(lot('a b#c#')).toBe(
      `A lot number cannot hold spaces, “#”. Use letters, digits and ! " % & ' ( ) * + , - . / : ; < = > ? _.`,
    );
    expect(lot('é')).toMatch(/cannot hold “é”/);
    expect(lot('a@b')).toMatch(/cannot hold “@”/);
  });

  it('wants dates with a lot, real days, and expiry after manufacture', () => {
    expect(validateCodeJobForm(valid({ expires_on: '2027-01-31' })).lot_number).toBe(
      'Enter the lot number the dates belong to.',
    );
    const dated = (manufactured_on: string, expires_on: string) =>
      validateCodeJobForm(valid({ lot_number: 'L1', manufactured_on, expires_on }));
    expect(dated('2026-01-31', '2026-01-31').expires_on).toBe(
      'The expiry date must be after the manufacturing date.',
    );
    expect(dated('2026-02-01', '2026-01-31').expires_on).toBe(
      'The expiry date must be after the manufacturing date.',
    );
    expect(dated('2026-01-31', '2026-02-01')).toEqual({});
    expect(dated('', '2026-02-01')).toEqual({});
    expect(dated('2026-02-30', '').manufactured_on).toBe('Enter a date, or leave it empty.');
  });
});

describe('newCodeJobBody', () => {
  it('sends the number and leaves out what is empty', () => {
    expect(newCodeJobBody('p-1', valid({ quantity: '120,000' }))).toEqual({
      product_id: 'p-1',
      quantity: 120_000,
    });
    expect(newCodeJobBody('p-1', valid({ lot_number: ' L1 ', expires_on: '2027-01-31' }))).toEqual({
      product_id: 'p-1',
      quantity: 120_000,
      lot: { number: 'L1', expires_on: '2027-01-31' },
    });
  });
});

describe('fieldOfServerMessage', () => {
  it('finds the field the server names, and leaves the quota above the form', () => {
    expect(
      fieldOfServerMessage(
        'Lot L1 of this product already exists with other dates. Leave the dates out to use it, or use another lot number.',
      ),
    ).toBe('lot_number');
    expect(fieldOfServerMessage('lot.number must be 1 to 20 characters')).toBe('lot_number');
    expect(fieldOfServerMessage('lot.expires_on must be after lot.manufactured_on.')).toBe(
      'expires_on',
    );
    expect(fieldOfServerMessage('quantity must be 1 to 10,000,000.')).toBe('quantity');
    expect(
      fieldOfServerMessage(
        "This job needs 120000 codes, but only 5 remain in your plan's code quota. Generate fewer codes or ask for a higher quota.",
      ),
    ).toBeNull();
    expect(
      fieldOfServerMessage('This product is archived: codes cannot be generated for it.'),
    ).toBeNull();
  });
});
