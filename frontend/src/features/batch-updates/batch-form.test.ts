import {
  batchFormBody,
  emptyBatchForm,
  gtinError,
  validateBatchForm,
  type BatchFormValues,
} from './batch-form';

const TODAY = '2026-11-25';
const JOB = '11111111-1111-4111-8111-111111111111';

function values(fields: Partial<BatchFormValues> = {}): BatchFormValues {
  return {
    ...emptyBatchForm(),
    serials: '0000000000A\n\n https://id.example/01/04006381333931/21/0000000000B \n',
    gtin: '4006381333931',
    batch_number: 'B2026-01',
    manufacturing_date: '2026-01-01',
    expiry_date: '2028-01-01',
    licence_number: 'MH/25/1234',
    ...fields,
  };
}

describe('the manual batch form', () => {
  it('accepts a good form and sends its serials, trimmed, one a line', () => {
    expect(validateBatchForm(values(), TODAY)).toEqual({});
    expect(batchFormBody(values())).toEqual({
      serials: ['0000000000A', 'https://id.example/01/04006381333931/21/0000000000B'],
      gtin: '4006381333931',
      batch_number: 'B2026-01',
      manufacturing_date: '2026-01-01',
      expiry_date: '2028-01-01',
      licence_number: 'MH/25/1234',
    });
  });

  it('checks GTIN lengths and check digits as the server does', () => {
    expect(gtinError('4006381333931')).toBeNull();
    expect(gtinError('96385074')).toBeNull();
    expect(gtinError('4006381333932')).toMatch(/check digit is wrong/);
    expect(gtinError('12345')).toMatch(/8, 12, 13 or 14 digits/);
    expect(gtinError('40063813339a1')).toMatch(/8, 12, 13 or 14 digits/);
  });

  it('wants the codes: a range, serials or both', () => {
    expect(validateBatchForm(values({ serials: '' }), TODAY).serials).toMatch(/Give the codes/);
    const ranged = values({ serials: '', code_job_id: JOB, first: '1', last: '500' });
    expect(validateBatchForm(ranged, TODAY)).toEqual({});
    expect(batchFormBody(ranged).range).toEqual({ code_job_id: JOB, first: 1, last: 500 });
  });

  it('checks the range', () => {
    const errors = validateBatchForm(values({ code_job_id: 'job-1', first: '0', last: '' }), TODAY);
    expect(errors.code_job_id).toMatch(/UUID/);
    expect(errors.first).toMatch(/1 or more/);
    expect(errors.last).toMatch(/1 or more/);
    expect(
      validateBatchForm(values({ code_job_id: JOB, first: '10', last: '9' }), TODAY).last,
    ).toMatch(/not be before the first/);
    expect(
      validateBatchForm(values({ code_job_id: JOB, first: '1', last: '1000001' }), TODAY).last,
    ).toMatch(/at most 1,000,000/);
  });

  it('refuses serials that are no codes, and more than 10,000', () => {
    expect(validateBatchForm(values({ serials: 'ABC' }), TODAY).serials).toMatch(/“ABC” is not/);
    const many = Array.from({ length: 10_001 }, () => '0000000000A').join('\n');
    expect(validateBatchForm(values({ serials: many }), TODAY).serials).toMatch(
      /10,001 serials: at most 10,000/,
    );
  });

  it('checks the batch number’s characters and length', () => {
    expect(validateBatchForm(values({ batch_number: 'B 1#' }), TODAY).batch_number).toMatch(
      /cannot hold spaces, “#”/,
    );
    expect(validateBatchForm(values({ batch_number: 'B'.repeat(21) }), TODAY).batch_number).toMatch(
      /at most 20/,
    );
    expect(validateBatchForm(values({ batch_number: '' }), TODAY).batch_number).toMatch(/Enter/);
  });

  it('checks the dates: real days, manufacture not in the future, expiry after it', () => {
    expect(
      validateBatchForm(values({ manufacturing_date: '2026-11-26' }), TODAY).manufacturing_date,
    ).toMatch(/future/);
    expect(validateBatchForm(values({ expiry_date: '2026-01-01' }), TODAY).expiry_date).toMatch(
      /after the manufacturing date/,
    );
    const unreal = validateBatchForm(
      values({ manufacturing_date: '2026-02-30', expiry_date: '2027-02-29' }),
      TODAY,
    );
    expect(unreal.manufacturing_date).toBe('Enter the manufacturing date.');
    expect(unreal.expiry_date).toBe('Enter the expiry date.');
    const blank = validateBatchForm(values({ manufacturing_date: '', expiry_date: '' }), TODAY);
    expect(blank.manufacturing_date).toMatch(/Enter/);
    expect(blank.expiry_date).toMatch(/Enter/);
  });

  it('wants the licence number (Schedule H2), at most 50 characters', () => {
    expect(validateBatchForm(values({ licence_number: '  ' }), TODAY).licence_number).toMatch(
      /Schedule H2/,
    );
    expect(
      validateBatchForm(values({ licence_number: 'L'.repeat(51) }), TODAY).licence_number,
    ).toMatch(/1 to 50/);
  });
});
