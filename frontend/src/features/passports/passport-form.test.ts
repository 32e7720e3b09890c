import type { PassportData } from './api/passports-api';
import {
  casCheckDigit,
  casError,
  checkPassport,
  commodityError,
  eoriError,
  shortTextError,
  toData,
  toModel,
  urlError,
} from './passport-form';

const empty: PassportData = {
  identification: { visibility: 'restricted' },
  compliance_documents: { visibility: 'restricted', items: [] },
  user_manuals: { visibility: 'restricted', items: [] },
  safety_information: { visibility: 'restricted', items: [] },
  manufacturer: { visibility: 'restricted', facility_ids: [] },
  importer: { visibility: 'restricted' },
  responsible_operator: { visibility: 'restricted' },
  substances_of_concern: { visibility: 'restricted', items: [] },
  materials: { visibility: 'restricted', items: [] },
  repair: { visibility: 'restricted' },
  recycling: { visibility: 'restricted' },
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
      identification: { visibility: 'public', commodity_code: '640399' },
      manufacturer: { visibility: 'public', name: 'Maker', facility_ids: ['F1', 'F2'] },
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
