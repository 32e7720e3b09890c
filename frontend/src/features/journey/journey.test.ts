import { identifierLabel, stepTitle, validateStepForm, emptyStepForm } from './journey';
import { journeyEvent } from './test-data';

describe('journey model', () => {
  it('names GS1 identifiers as people read them', () => {
    expect(identifierLabel('https://id.gs1.org/01/09506000134352/10/L%2F1')).toBe(
      'GTIN 09506000134352, lot L/1',
    );
    expect(identifierLabel('https://id.gs1.org/00/106141412345678908')).toBe(
      'SSCC 106141412345678908',
    );
    expect(identifierLabel('https://id.gs1.org/414/9506000134352/254/A1')).toBe(
      'GLN 9506000134352 (A1)',
    );
    expect(identifierLabel('urn:epc:id:sgln:9506000.13435.0')).toBe('SGLN 9506000.13435');
    expect(identifierLabel('urn:x:y')).toBe('urn:x:y');
  });

  it('titles CBV steps', () => {
    expect(stepTitle(journeyEvent())).toBe('Codes commissioned');
    expect(stepTitle(journeyEvent({ biz_step: 'https://ref.gs1.org/cbv/BizStep-loading' }))).toBe(
      'loading',
    );
  });

  it('checks GS1 check digits and what the server refuses', () => {
    const packing = { ...emptyStepForm, location: '9506000134352' };
    expect(validateStepForm({ ...packing, container: '106141412345678908' })).toEqual({});
    expect(validateStepForm({ ...packing, container: '106141412345678909' })).toEqual({
      container: 'This SSCC has a wrong check digit.',
    });
    expect(
      validateStepForm({ ...packing, container: '106141412345678908', location: '9506000134353' }),
    ).toEqual({ location: 'This GLN has a wrong check digit.' });
    expect(
      validateStepForm({
        ...packing,
        container: '106141412345678908',
        location: 'https://id.gs1.org/414/9506000134353',
      }),
    ).toEqual({ location: 'This GLN has a wrong check digit.' });
    expect(validateStepForm({ ...emptyStepForm, location: '9506000134352' })).toEqual({
      container: 'Give the SSCC of the case or pallet the units go into.',
    });
    expect(
      validateStepForm({
        ...emptyStepForm,
        step: 'receiving',
        location: 'https://id.gs1.org/414/9506000134352',
        quantity: '0',
      }),
    ).toEqual({ quantity: 'A whole number of units, 1 or more.' });
  });
});
