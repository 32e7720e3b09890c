import {
  emptyLocationForm,
  emptyLotForm,
  emptyReorderForm,
  emptyReservationForm,
  validateLocationForm,
  validateLotForm,
  validateReorderForm,
  validateReservationForm,
} from './forms';

describe('validateLocationForm', () => {
  it('needs a code without spaces, a name and a kind', () => {
    expect(validateLocationForm({ ...emptyLocationForm(), code: 'WH1', name: 'Main' })).toEqual({});
    expect(validateLocationForm(emptyLocationForm())).toEqual({
      code: 'Enter a code, such as WH1 or A-01.',
      name: 'Enter a name.',
    });
    expect(validateLocationForm({ code: 'A 1', name: 'x', kind: 'shelf', parent_id: '' })).toEqual({
      code: 'A code has no spaces.',
      kind: 'Choose the kind of location.',
    });
    expect(validateLocationForm({ ...emptyLocationForm(), code: '-A', name: 'x' }).code).toMatch(
      /starting with a letter or digit/,
    );
    expect(validateLocationForm({ ...emptyLocationForm(), code: 'A/01_b.c', name: 'x' })).toEqual(
      {},
    );
  });
});

describe('validateLotForm', () => {
  it('takes a GS1 lot number and ordered dates', () => {
    const lot = { ...emptyLotForm('p1'), number: 'L-2026/01', expires_on: '2027-01-01' };
    expect(validateLotForm(lot)).toEqual({});
    expect(validateLotForm({ ...lot, number: 'lot é' }).number).toMatch(/spaces, “é”/);
    expect(validateLotForm({ ...lot, number: 'x'.repeat(21) }).number).toBe(
      'Use at most 20 characters.',
    );
    expect(validateLotForm({ ...lot, manufactured_on: '2027-01-01' }).expires_on).toMatch(
      /after the manufacturing date/,
    );
    expect(validateLotForm({ ...lot, product_id: '' }).product_id).toBe('Choose the product.');
  });
});

describe('validateReservationForm', () => {
  it('needs a product, a positive quantity and a reference', () => {
    expect(
      validateReservationForm({
        product_id: 'p',
        quantity: '3',
        location_id: '',
        reference: 'SO-1',
      }),
    ).toEqual({});
    expect(Object.keys(validateReservationForm(emptyReservationForm())).sort()).toEqual([
      'product_id',
      'quantity',
      'reference',
    ]);
  });
});

describe('validateReorderForm', () => {
  const rule = { product_id: 'p', location_id: 'l', min_quantity: '10', max_quantity: '50' };

  it('accepts a minimum of zero and a maximum at or above it', () => {
    expect(validateReorderForm(rule)).toEqual({});
    expect(validateReorderForm({ ...rule, min_quantity: '0' })).toEqual({});
    expect(validateReorderForm({ ...rule, max_quantity: '10.000' })).toEqual({});
  });

  it('refuses a maximum below the minimum, compared exactly', () => {
    expect(validateReorderForm({ ...rule, min_quantity: '9.999', max_quantity: '9.99' })).toEqual({
      max_quantity: 'The maximum cannot be below the minimum.',
    });
    expect(Object.keys(validateReorderForm(emptyReorderForm())).sort()).toEqual([
      'location_id',
      'max_quantity',
      'min_quantity',
      'product_id',
    ]);
  });
});
