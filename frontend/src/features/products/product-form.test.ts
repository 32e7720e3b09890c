import { withCheckDigit } from '@/lib/gs1';
import {
  emptyProductForm,
  fieldOfServerMessage,
  newProductBody,
  productChangeBody,
  productFormValues,
  validateProductForm,
  type ProductFormValues,
} from './product-form';
import { product } from './test-data';

const valid: ProductFormValues = {
  product_name: '  Oat milk  ',
  skuid: 'OAT-1',
  gtin: '4006381333931',
  category: '',
  product_description: '',
  unit: 'each',
  requires_inspection: 'false',
};

describe('validateProductForm', () => {
  it('accepts a valid product', () => {
    expect(validateProductForm(valid)).toEqual({});
    expect(validateProductForm({ ...valid, gtin: '96385074' })).toEqual({});
    expect(validateProductForm({ ...valid, gtin: '036000291452' })).toEqual({});
    expect(validateProductForm({ ...valid, gtin: '10614141000415' })).toEqual({});
    expect(validateProductForm({ ...valid, skuid: 'a.b_c/d-1' })).toEqual({});
  });

  it('requires name, SKU id and GTIN', () => {
    expect(Object.keys(validateProductForm(emptyProductForm())).sort()).toEqual([
      'gtin',
      'product_name',
      'skuid',
    ]);
    expect(validateProductForm({ ...valid, product_name: '   ' }).product_name).toBeTruthy();
  });

  it('limits the name to 200 characters once trimmed, counting characters', () => {
    expect(validateProductForm({ ...valid, product_name: ` ${'n'.repeat(200)} ` })).toEqual({});
    expect(validateProductForm({ ...valid, product_name: 'é'.repeat(200) })).toEqual({});
    expect(validateProductForm({ ...valid, product_name: 'n'.repeat(201) }).product_name).toBe(
      'Use at most 200 characters.',
    );
    expect(validateProductForm({ ...valid, product_name: 'a\u0007b' }).product_name).toBeTruthy();
    expect(validateProductForm({ ...valid, product_name: 'a\u202eb' }).product_name).toBeTruthy();
  });

  it.each(['-abc', '.abc', 'a b', 'a+b', 'ä1', 'a'.repeat(65)])(
    'refuses the SKU id %o',
    (skuid) => {
      expect(validateProductForm({ ...valid, skuid }).skuid).toBeTruthy();
    },
  );

  it('explains a GTIN of the wrong length and a wrong check digit', () => {
    expect(validateProductForm({ ...valid, gtin: '123' }).gtin).toBe(
      'A GTIN has 8, 12, 13 or 14 digits, nothing else.',
    );
    expect(validateProductForm({ ...valid, gtin: '4006381333932' }).gtin).toBe(
      'The check digit (the last digit) is wrong: check the number on the barcode.',
    );
    expect(validateProductForm({ ...valid, gtin: withCheckDigit('123456789012') })).toEqual({});
  });

  it('keeps category optional, 1 to 100 characters', () => {
    expect(validateProductForm({ ...valid, category: 'c'.repeat(100) })).toEqual({});
    expect(validateProductForm({ ...valid, category: 'c'.repeat(101) }).category).toBeTruthy();
  });

  it('does not let an edit remove a category (the server refuses an empty one)', () => {
    const original = product({ id: 'p', category: 'Drinks' });
    expect(validateProductForm({ ...valid, category: '' }, original).category).toBeTruthy();
    expect(validateProductForm({ ...valid, category: '' }, product({ id: 'q' }))).toEqual({});
  });

  it('allows 5000 characters of description with line breaks and tabs', () => {
    expect(
      validateProductForm({ ...valid, product_description: `a\tb\r\n${'d'.repeat(4995)}` }),
    ).toEqual({});
    expect(
      validateProductForm({ ...valid, product_description: 'd'.repeat(5001) }).product_description,
    ).toBeTruthy();
    expect(
      validateProductForm({ ...valid, product_description: 'a\u0000b' }).product_description,
    ).toBeTruthy();
  });
});

describe('request bodies', () => {
  it('trims and leaves out empty optional fields when adding', () => {
    expect(newProductBody(valid)).toEqual({
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '4006381333931',
    });
    expect(
      newProductBody({ ...valid, category: ' Drinks ', product_description: 'Line 1\nLine 2' }),
    ).toMatchObject({ category: 'Drinks', product_description: 'Line 1\nLine 2' });
  });

  it('sends only what changed when editing; the stored GTIN-14 equals its short form', () => {
    const original = product({
      id: 'p',
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '04006381333931',
      category: 'Drinks',
    });
    const values = productFormValues(original);
    expect(productChangeBody(original, values)).toEqual({});
    expect(productChangeBody(original, { ...values, gtin: '4006381333931' })).toEqual({});
    expect(
      productChangeBody(original, { ...values, product_name: ' Oat drink ', gtin: '96385074' }),
    ).toEqual({ product_name: 'Oat drink', gtin: '96385074' });
  });
});

describe('unit and inspection', () => {
  it('defaults to each, no inspection, and sends them only when set', () => {
    expect(emptyProductForm()).toMatchObject({ unit: 'each', requires_inspection: 'false' });
    expect(newProductBody(valid)).not.toHaveProperty('unit');
    expect(newProductBody(valid)).not.toHaveProperty('requires_inspection');
    expect(newProductBody({ ...valid, unit: ' kg ', requires_inspection: 'true' })).toMatchObject({
      unit: 'kg',
      requires_inspection: true,
    });
  });

  it('checks the unit as the server does', () => {
    for (const ok of ['each', 'kg', 'ml', 'box_of_10', 'a'.repeat(16)])
      expect(validateProductForm({ ...valid, unit: ok }).unit, ok).toBeUndefined();
    for (const bad of ['', 'KG', '1kg', 'k g', 'a'.repeat(17), 'kg-2'])
      expect(validateProductForm({ ...valid, unit: bad }).unit, bad).toBeTruthy();
  });

  it('sends the flag and the unit when editing only when they change', () => {
    const original = product({ id: 'p', unit: 'kg', requires_inspection: true });
    const values = productFormValues(original);
    expect(values).toMatchObject({ unit: 'kg', requires_inspection: 'true' });
    expect(productChangeBody(original, values)).toEqual({});
    expect(
      productChangeBody(original, { ...values, unit: 'g', requires_inspection: 'false' }),
    ).toEqual({ unit: 'g', requires_inspection: false });
  });
});

describe('fieldOfServerMessage', () => {
  it.each([
    ["gtin has a wrong check digit: check the number on the product's barcode.", 'gtin'],
    ['This GTIN is registered to another organisation. Check the GTIN.', 'gtin'],
    ['Another product already has this skuid.', 'skuid'],
    ['product_name is required (200 characters at most).', 'product_name'],
    ['category must be 1 to 100 characters (leave it out for none).', 'category'],
    ['product_description is too long (5000 characters at most).', 'product_description'],
    ['unit must be 1 to 16 characters: a lower-case letter, then …', 'unit'],
    ["You have reached your plan's limit of products.", null],
  ])('%s -> %s', (message, field) => {
    expect(fieldOfServerMessage(message)).toBe(field);
  });
});
