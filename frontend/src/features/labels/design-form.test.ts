import {
  SHEETS,
  designFormValues,
  designOf,
  emptyDesignForm,
  parseDecimal,
  sheetSize,
  templateBody,
  validateDesign,
  validateDesignForm,
  withSheet,
  type DesignFormValues,
} from './design-form';
import { design, template } from './test-data';

const valid = (overrides: Partial<DesignFormValues> = {}): DesignFormValues => ({
  ...emptyDesignForm(),
  name: 'Shelf label',
  ...overrides,
});

describe('the designer form', () => {
  it('starts as an A4 sheet of 70 × 37 mm labels with a QR code and every text line', () => {
    expect(designOf(emptyDesignForm())).toEqual(design());
  });

  it('reads decimals with a point or a comma, and nothing else', () => {
    expect(parseDecimal('70')).toBe(70);
    expect(parseDecimal(' 99.1 ')).toBe(99.1);
    expect(parseDecimal('99,1')).toBe(99.1);
    expect(parseDecimal('.5')).toBe(0.5);
    for (const text of ['', '-5', '1e2', '70mm', '1.2.3', 'ten', '7 0']) {
      expect(parseDecimal(text), text).toBeNull();
    }
  });

  it('checks sizes as the server does: 10 to 300 mm, font 4 to 36 pt, margin 0 to 20 mm', () => {
    expect(validateDesign(valid())).toEqual({});
    expect(validateDesign(valid({ width_mm: '10', height_mm: '300' }))).toEqual({});
    expect(validateDesign(valid({ width_mm: '' })).width_mm).toBe('Enter the width, 10 to 300 mm.');
    expect(validateDesign(valid({ width_mm: '9.9' })).width_mm).toBe(
      'The width must be 10 to 300 mm.',
    );
    expect(validateDesign(valid({ height_mm: '300.1' })).height_mm).toBe(
      'The height must be 10 to 300 mm.',
    );
    expect(validateDesign(valid({ height_mm: 'big' })).height_mm).toBe(
      'The height must be a number of millimetres, such as 37 or 38.1.',
    );
    expect(validateDesign(valid({ font_size_pt: '3' })).font_size_pt).toBe(
      'The font size must be 4 to 36 pt.',
    );
    expect(validateDesign(valid({ font_size_pt: '36' })).font_size_pt).toBeUndefined();
    expect(validateDesign(valid({ margin_mm: '0' })).margin_mm).toBeUndefined();
    expect(validateDesign(valid({ margin_mm: '21' })).margin_mm).toBe(
      'The margin must be 0 to 20 mm.',
    );
    expect(designOf(valid({ margin_mm: '21' }))).toBeNull();
  });

  it('wants a name of 1 to 100 plain characters to save', () => {
    expect(validateDesignForm(valid())).toEqual({});
    expect(validateDesignForm(valid({ name: '   ' })).name).toBe('Enter a name for the template.');
    expect(validateDesignForm(valid({ name: 'x'.repeat(100) })).name).toBeUndefined();
    expect(validateDesignForm(valid({ name: 'x'.repeat(101) })).name).toBe(
      'Use at most 100 characters.',
    );
    expect(validateDesignForm(valid({ name: 'a\u202eb' })).name).toBe(
      'Remove control characters and text-direction marks.',
    );
    expect(validateDesignForm(valid({ name: '', width_mm: '' }))).toEqual({
      name: 'Enter a name for the template.',
      width_mm: 'Enter the width, 10 to 300 mm.',
    });
  });

  it('fills in the label size of a sheet preset, and keeps the size for single labels', () => {
    expect(withSheet(valid(), 'a4_l7163')).toMatchObject({
      sheet: 'a4_l7163',
      width_mm: '99.1',
      height_mm: '38.1',
    });
    expect(withSheet(valid(), 'letter_5160')).toMatchObject({
      width_mm: '66.7',
      height_mm: '25.4',
    });
    expect(withSheet(valid(), 'letter_5163')).toMatchObject({
      width_mm: '101.6',
      height_mm: '50.8',
    });
    expect(
      withSheet(valid({ sheet: 'single', width_mm: '50', height_mm: '30' }), 'a4_3x8'),
    ).toMatchObject({ width_mm: '70', height_mm: '37' });
    expect(withSheet(valid({ width_mm: '50', height_mm: '30' }), 'single')).toMatchObject({
      sheet: 'single',
      width_mm: '50',
      height_mm: '30',
    });
    // Every preset but single labels has its size.
    expect(SHEETS.filter((s) => sheetSize(s.value) === null).map((s) => s.value)).toEqual([
      'single',
    ]);
  });

  it('sends the trimmed name and the design, text lines as booleans', () => {
    expect(
      templateBody(
        valid({ name: '  Shelf label ', gtin: '', serial: '', width_mm: '99,1', sheet: 'single' }),
      ),
    ).toEqual({
      name: 'Shelf label',
      design: design({
        width_mm: 99.1,
        sheet: 'single',
        fields: { product_name: true, gtin: false, lot: true, expiry: true, serial: false },
      }),
    });
    expect(templateBody(valid({ width_mm: '' }))).toBeNull();
  });

  it('opens a saved template as it was saved', () => {
    const saved = template({
      id: 't1',
      name: 'Carton',
      design: design({
        width_mm: 101.6,
        height_mm: 50.8,
        sheet: 'letter_5163',
        symbology: 'datamatrix',
        fields: { product_name: false, gtin: true, lot: true, expiry: false, serial: true },
        font_size_pt: 9.5,
        margin_mm: 0,
      }),
    });
    const values = designFormValues(saved);
    expect(values).toMatchObject({ name: 'Carton', width_mm: '101.6', font_size_pt: '9.5' });
    expect(templateBody(values)).toEqual({ name: 'Carton', design: saved.design });
  });
});
