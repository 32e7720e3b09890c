import {
  attributeRows,
  attributeText,
  attributesBody,
  changeAttributeType,
  emptyAttributeRow,
  hasAttributeErrors,
  validateAttributes,
  type AttributeRow,
} from './product-attributes';
import { newProductBody, productChangeBody } from './product-form';
import { product } from './test-data';

function row(values: Partial<AttributeRow>): AttributeRow {
  return { ...emptyAttributeRow(), ...values };
}

const valid = {
  product_name: 'Oat milk',
  skuid: 'OAT-1',
  gtin: '4006381333931',
  category: '',
  product_description: '',
  unit: 'each',
  requires_inspection: 'false',
};

describe('attribute rules', () => {
  it('accepts a valid list of every type', () => {
    const rows = [
      row({ name: 'Colour', type: 'text', value: '' }),
      row({ name: 'Net weight', type: 'number', value: '-2.5e3' }),
      row({ name: 'Vegan', type: 'boolean', value: 'false' }),
      row({ name: 'Best before', type: 'date', value: '2024-02-29' }),
    ];
    expect(hasAttributeErrors(validateAttributes(rows))).toBe(false);
  });

  it('needs a name of 1 to 60 characters once trimmed, without control characters', () => {
    const rows = [
      row({ name: '   ' }),
      row({ name: 'n'.repeat(61) }),
      row({ name: ` ${'n'.repeat(60)} ` }),
      row({ name: 'a\u0007b' }),
    ];
    const { rows: errors } = validateAttributes(rows);
    expect(errors[rows[0]!.key]?.name).toBe('Enter the attribute’s name.');
    expect(errors[rows[1]!.key]?.name).toBe('Use at most 60 characters.');
    expect(errors[rows[2]!.key]).toBeUndefined();
    expect(errors[rows[3]!.key]?.name).toBe('Remove control characters.');
  });

  it('refuses names that differ only in case or spaces', () => {
    const rows = [row({ name: 'Colour' }), row({ name: ' COLOUR ' }), row({ name: 'Size' })];
    const { rows: errors } = validateAttributes(rows);
    expect(errors[rows[0]!.key]).toBeUndefined();
    expect(errors[rows[1]!.key]?.name).toBe('Another attribute already has this name.');
    expect(errors[rows[2]!.key]).toBeUndefined();
  });

  it('checks values by type: text at most 500, finite numbers, real dates', () => {
    const rows = [
      row({ name: 'a', type: 'text', value: 'x'.repeat(501) }),
      row({ name: 'b', type: 'number', value: '' }),
      row({ name: 'c', type: 'number', value: 'Infinity' }),
      row({ name: 'd', type: 'date', value: '2023-02-29' }),
      row({ name: 'e', type: 'text', value: 'x'.repeat(500) }),
    ];
    const { rows: errors } = validateAttributes(rows);
    expect(errors[rows[0]!.key]?.value).toBe('Use at most 500 characters.');
    expect(errors[rows[1]!.key]?.value).toBe('Enter a number.');
    expect(errors[rows[2]!.key]?.value).toBe('Enter a number.');
    expect(errors[rows[3]!.key]?.value).toBe('Enter a date.');
    expect(errors[rows[4]!.key]).toBeUndefined();
  });

  it('allows at most 50 attributes', () => {
    const rows = Array.from({ length: 51 }, (_, i) => row({ name: `n${i}` }));
    expect(validateAttributes(rows).list).toBe('Use at most 50 attributes: remove 1.');
    expect(validateAttributes(rows.slice(0, 50)).list).toBeUndefined();
  });

  it('keeps a value that still fits when the type changes', () => {
    expect(changeAttributeType(row({ type: 'text', value: ' 12 ' }), 'number').value).toBe('12');
    expect(changeAttributeType(row({ type: 'text', value: 'abc' }), 'number').value).toBe('');
    expect(changeAttributeType(row({ type: 'text', value: 'abc' }), 'boolean').value).toBe('false');
    expect(changeAttributeType(row({ type: 'boolean', value: 'true' }), 'text').value).toBe('');
  });
});

describe('attribute serialization', () => {
  it('sends numbers as numbers, booleans as booleans, names trimmed', () => {
    const rows = [
      row({ name: ' Net weight ', type: 'number', value: '500' }),
      row({ name: 'Vegan', type: 'boolean', value: 'true' }),
      row({ name: 'Best before', type: 'date', value: '2025-06-30' }),
      row({ name: 'Colour', type: 'text', value: ' Green ' }),
    ];
    expect(attributesBody(rows)).toEqual([
      { type: 'number', name: 'Net weight', value: 500 },
      { type: 'boolean', name: 'Vegan', value: true },
      { type: 'date', name: 'Best before', value: '2025-06-30' },
      { type: 'text', name: 'Colour', value: ' Green ' },
    ]);
  });

  it('round-trips a product’s list through the editor rows', () => {
    const list = [
      { type: 'number' as const, name: 'Weight', value: 0.25 },
      { type: 'boolean' as const, name: 'Vegan', value: false },
    ];
    expect(attributesBody(attributeRows(list))).toEqual(list);
  });

  it('adds the list to a new product only when there is one', () => {
    expect(newProductBody(valid, [])).not.toHaveProperty('attributes');
    expect(newProductBody(valid, [{ type: 'text', name: 'a', value: 'b' }]).attributes).toEqual([
      { type: 'text', name: 'a', value: 'b' },
    ]);
  });

  it('sends the whole list on edit when any attribute changed, nothing otherwise', () => {
    const original = product({
      id: 'p',
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '04006381333931',
      attributes: [
        { type: 'text', name: 'Colour', value: 'Green' },
        { type: 'number', name: 'Weight', value: 5 },
      ],
    });
    const values = { ...valid, gtin: '4006381333931' };
    expect(productChangeBody(original, values, original.attributes)).toEqual({});
    expect(
      productChangeBody(original, values, [
        { type: 'text', name: 'Colour', value: 'Green' },
        { type: 'number', name: 'Weight', value: 6 },
      ]),
    ).toEqual({
      attributes: [
        { type: 'text', name: 'Colour', value: 'Green' },
        { type: 'number', name: 'Weight', value: 6 },
      ],
    });
    expect(productChangeBody(original, values, [])).toEqual({ attributes: [] });
  });

  it('shows Yes/No, dates in the local style and numbers as given', () => {
    expect(attributeText({ type: 'boolean', name: 'a', value: true })).toBe('Yes');
    expect(attributeText({ type: 'boolean', name: 'a', value: false })).toBe('No');
    expect(attributeText({ type: 'number', name: 'a', value: 1234.5 })).toBe('1234.5');
    expect(attributeText({ type: 'date', name: 'a', value: '2025-06-30' })).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(2025, 5, 30)),
    );
  });
});
