import {
  LOT_MAX,
  LOT_PATTERN,
  charactersOutsideSet82,
  checkDigitOk,
  gs1CheckDigit,
  gtinProblem,
  isValidGtin,
  withCheckDigit,
} from './gs1';

describe('GS1 check digit', () => {
  it.each([
    ['9638507', 4], // GTIN-8 96385074
    ['03600029145', 2], // GTIN-12 036000291452
    ['400638133393', 1], // GTIN-13 4006381333931
    ['1061414100041', 5], // GTIN-14 10614141000415
    ['629104150021', 3], // EAN-13 6291041500213
    ['0000000000000', 0],
  ])('of %s is %i', (digits, check) => {
    expect(gs1CheckDigit(digits)).toBe(check);
  });

  it('does not change when zeros are padded on the left (GTIN-14 form)', () => {
    expect(gs1CheckDigit('0000009638507')).toBe(gs1CheckDigit('9638507'));
    expect(gs1CheckDigit('0400638133393')).toBe(gs1CheckDigit('400638133393'));
  });

  it('refuses anything but digits', () => {
    expect(() => gs1CheckDigit('12a')).toThrow();
  });
});

describe('checkDigitOk', () => {
  it.each([
    '9506000134352', // GLN
    '106141412345678908', // SSCC
    '4006381333931', // GTIN-13
    '96385074', // GTIN-8
  ])('accepts %s', (number) => {
    expect(checkDigitOk(number)).toBe(true);
  });

  it.each(['9506000134353', '106141412345678909', '4006381333932', '96385075'])(
    'finds the wrong check digit of %s',
    (number) => {
      expect(checkDigitOk(number)).toBe(false);
    },
  );

  it.each(['', '95060001343a2', ' 9506000134352', '-96385074'])(
    'refuses what is not digits only: %o',
    (number) => {
      expect(checkDigitOk(number)).toBe(false);
    },
  );
});

describe('gtinProblem', () => {
  it.each(['96385074', '036000291452', '4006381333931', '10614141000415', '00000096385074'])(
    'accepts %s',
    (gtin) => {
      expect(gtinProblem(gtin)).toBeNull();
      expect(isValidGtin(gtin)).toBe(true);
    },
  );

  it.each(['96385075', '036000291453', '4006381333932', '10614141000416'])(
    'finds the wrong check digit of %s',
    (gtin) => {
      expect(gtinProblem(gtin)).toBe('check-digit');
    },
  );

  it.each([
    '',
    '1234567',
    '123456789',
    '12345678901',
    '123456789012345',
    '4006381333 931',
    'abcdefgh',
    '+9638507',
  ])('refuses the format of %o', (gtin) => {
    expect(gtinProblem(gtin)).toBe('format');
  });

  it('withCheckDigit makes valid GTINs', () => {
    expect(withCheckDigit('400638133393')).toBe('4006381333931');
    for (const digits of ['1234567', '12345678901', '123456789012', '1234567890123']) {
      expect(isValidGtin(withCheckDigit(digits))).toBe(true);
    }
  });
});

describe('batch and lot numbers (AI 10, character set 82)', () => {
  it('takes 1 to 20 characters of the set, no more and nothing else', () => {
    expect(LOT_PATTERN.test('L-2026/01')).toBe(true);
    expect(LOT_PATTERN.test(`!"%&'()*+,-./:;<=>?_aZ9`.slice(0, LOT_MAX))).toBe(true);
    expect(LOT_PATTERN.test('A'.repeat(LOT_MAX))).toBe(true);
    expect(LOT_PATTERN.test('A'.repeat(LOT_MAX + 1))).toBe(false);
    expect(LOT_PATTERN.test('')).toBe(false);
    for (const bad of ['LOT 1', 'LÖT', 'L#1', 'L@1', 'L\n1']) {
      expect(LOT_PATTERN.test(bad)).toBe(false);
    }
  });

  it('names the characters outside the set, each once', () => {
    expect(charactersOutsideSet82('L-2026/01')).toBe('');
    expect(charactersOutsideSet82('LÖT #1 #2')).toBe('“Ö”, spaces, “#”');
  });
});
