import type { PassportData } from './api/passports-api';
import {
  casCheckDigit,
  casError,
  checkPassport,
  commodityError,
  eoriError,
  fieldVisibility,
  itemVisibility,
  shortTextError,
  toData,
  toModel,
  urlError,
  withFieldVisibility,
  withItemVisibility,
  type MaterialRow,
} from './passport-form';

const empty: PassportData = {
  identification: { visibility: 'restricted', field_visibility: {} },
  compliance_documents: { visibility: 'restricted', items: [] },
  user_manuals: { visibility: 'restricted', items: [] },
  safety_information: { visibility: 'restricted', items: [] },
  manufacturer: { visibility: 'restricted', field_visibility: {}, facility_ids: [] },
  importer: { visibility: 'restricted', field_visibility: {} },
  responsible_operator: { visibility: 'restricted', field_visibility: {} },
  substances_of_concern: { visibility: 'restricted', items: [] },
  materials: { visibility: 'restricted', items: [] },
  repair: { visibility: 'restricted', field_visibility: {} },
  recycling: { visibility: 'restricted', field_visibility: {} },
};

describe('the server’s rules (backend/src/passports/mod.rs)', () => {
  it('checks CAS numbers with their check digit', () => {
    expect(casCheckDigit('773218')).toBe(5);
    expect(casError('7732-18-5')).toBeNull();
    expect(casError('7732-18-4')).toMatch(/check digit/);
    expect(casError('07732-18-5')).toMatch(/CAS number/);
  });

  it('checks EORI numbers, commodity codes, links and text', () => {
    expect(eoriError('DE123456789012345')).toBeNull();
    expect(eoriError('de123')).not.toBeNull();
    expect(eoriError('DE1234567890123456')).not.toBeNull();
    expect(commodityError('64039991')).toBeNull();
    expect(commodityError('6403.99')).not.toBeNull();
    expect(urlError('https://example.com/a.pdf?x=1')).toBeNull();
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'https://x.com/a b'])
      expect(urlError(bad)).not.toBeNull();
    expect(shortTextError('  ok ')).toBeNull();
    expect(shortTextError('   ')).not.toBeNull();
    expect(shortTextError('a\u202eb')).not.toBeNull();
    expect(shortTextError('x'.repeat(201))).not.toBeNull();
  });

  it('finds every problem of a model, keyed by field', () => {
    const model = toModel(empty);
    model.text['importer.eori'] = 'xx1';
    model.links.user_manuals = [{ title: '', url: 'http://x.com' }];
    model.substances = [
      { name: 'Lead', cas_number: '7439-92-2', concentration_percent: '101', location: '' },
    ];
    model.materials = [
      { name: 'A', share_percent: '60', recycled_percent: '' },
      { name: 'B', share_percent: '41', recycled_percent: '' },
    ];
    expect(Object.keys(checkPassport(model)).sort()).toEqual([
      'importer.eori',
      'materials',
      'substances_of_concern.0.cas_number',
      'substances_of_concern.0.concentration_percent',
      'user_manuals.0.title',
      'user_manuals.0.url',
    ]);
  });
});

describe('toModel and toData', () => {
  it('round-trip a passport, leaving out blank fields and trimming short ones', () => {
    const data: PassportData = {
      ...empty,
      identification: { visibility: 'public', field_visibility: {}, commodity_code: '640399' },
      manufacturer: {
        visibility: 'public',
        field_visibility: {},
        name: 'Maker',
        facility_ids: ['F1', 'F2'],
      },
      materials: { visibility: 'public', items: [{ name: 'Leather', share_percent: 60 }] },
    };
    expect(toData(toModel(data))).toEqual(data);
    const model = toModel(empty);
    model.text['importer.name'] = '  Importer  ';
    model.text['repair.instructions'] = '   ';
    model.facilityIds = ' F1 \n\n F2 ';
    const out = toData(model);
    expect(out.importer.name).toBe('Importer');
    expect(out.repair.instructions).toBeUndefined();
    expect(out.manufacturer.facility_ids).toEqual(['F1', 'F2']);
  });
});

describe('per-field visibility', () => {
  const data: PassportData = {
    ...empty,
    manufacturer: {
      visibility: 'public',
      field_visibility: { contact: 'restricted', facility_ids: 'restricted' },
      name: 'Maker',
      contact: 'maker@example.com',
      facility_ids: ['F1'],
    },
    importer: { visibility: 'restricted', field_visibility: { eori: 'public' }, eori: 'DE12' },
    user_manuals: {
      visibility: 'public',
      items: [
        { title: 'Manual', url: 'https://example.com/m.pdf' },
        { title: 'Service', url: 'https://example.com/s.pdf', visibility: 'restricted' },
      ],
    },
    materials: {
      visibility: 'restricted',
      items: [{ name: 'Cotton', visibility: 'public' }, { name: 'Blend' }],
    },
  };

  it('reads each field’s own visibility, else its section’s, and round-trips it', () => {
    const model = toModel(data);
    expect(fieldVisibility(model, 'manufacturer.name')).toBe('public');
    expect(fieldVisibility(model, 'manufacturer.contact')).toBe('restricted');
    expect(fieldVisibility(model, 'manufacturer.facility_ids')).toBe('restricted');
    expect(fieldVisibility(model, 'importer.eori')).toBe('public');
    expect(fieldVisibility(model, 'importer.name')).toBe('restricted');
    expect(itemVisibility(model, 'materials', model.materials[0]!)).toBe('public');
    expect(itemVisibility(model, 'materials', model.materials[1]!)).toBe('restricted');
    expect(toData(model)).toEqual(data);
  });

  it('keeps a field’s own visibility only while it differs from its section’s', () => {
    let model = toModel(empty);
    model = withFieldVisibility(model, 'importer.contact', 'public');
    expect(model.fieldVisibility).toEqual({ 'importer.contact': 'public' });
    expect(toData(model).importer.field_visibility).toEqual({ contact: 'public' });
    // Back to the section's: it follows the section again.
    model = withFieldVisibility(model, 'importer.contact', 'restricted');
    expect(model.fieldVisibility).toEqual({});
    // A field with its own visibility keeps it when the section changes;
    // once the two agree, nothing of its own is sent.
    model = withFieldVisibility(model, 'importer.name', 'public');
    model = { ...model, visibility: { ...model.visibility, importer: 'public' } };
    expect(fieldVisibility(model, 'importer.name')).toBe('public');
    expect(fieldVisibility(model, 'importer.eori')).toBe('public');
    expect(toData(model).importer).toEqual({ visibility: 'public', field_visibility: {} });

    const row: MaterialRow = { name: 'A', share_percent: '', recycled_percent: '' };
    const item = withItemVisibility(model, 'materials', row, 'public');
    expect(item.visibility).toBe('public');
    expect(withItemVisibility(model, 'materials', item, 'restricted').visibility).toBeUndefined();
  });

  it('reads documents saved before per-field visibility as their sections say', () => {
    const old = {
      ...empty,
      importer: { visibility: 'public', name: 'Importer' },
      materials: { visibility: 'restricted', items: [{ name: 'Cotton' }] },
    } as unknown as PassportData;
    const model = toModel(old);
    expect(fieldVisibility(model, 'importer.name')).toBe('public');
    expect(itemVisibility(model, 'materials', model.materials[0]!)).toBe('restricted');
    expect(toData(model).importer).toEqual({
      visibility: 'public',
      field_visibility: {},
      name: 'Importer',
    });
  });
});
