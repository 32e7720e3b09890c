import { codeSelectorBody, emptyCodeSelector, validateCodeSelector } from './code-selector';

describe('the code selector’s rules', () => {
  it('starts with an existing batch when the product has some', () => {
    expect(emptyCodeSelector(true).batch_mode).toBe('existing');
    expect(emptyCodeSelector(false).batch_mode).toBe('new');
  });

  it('asks for a batch and a quantity', () => {
    const errors = validateCodeSelector(emptyCodeSelector(true));
    expect(errors.batch).toBe('Choose a batch, or choose “A new batch”.');
    expect(errors.quantity).toBe('Enter how many codes to generate.');
    expect(errors.lot_number).toBeUndefined();
  });

  it('asks a new batch for its number and both dates, expiry after manufacture', () => {
    const values = { ...emptyCodeSelector(false), quantity: '10' };
    expect(validateCodeSelector(values)).toEqual({
      lot_number: 'Enter the new batch’s lot number.',
      manufactured_on: 'Enter the manufacturing date.',
      expires_on: 'Enter the expiry date.',
    });
    expect(
      validateCodeSelector({
        ...values,
        lot_number: 'B 1',
        manufactured_on: '2026-05-01',
        expires_on: '2026-04-01',
      }),
    ).toEqual({
      lot_number: expect.stringContaining('spaces') as string,
      expires_on: 'The expiry date must be after the manufacturing date.',
    });
  });

  it('sends an existing batch by its number, and a new one with its dates', () => {
    expect(
      codeSelectorBody('p-1', {
        ...emptyCodeSelector(true),
        batch: 'B-7',
        quantity: '1,000',
        lot_number: 'ignored',
        expires_on: '2030-01-01',
      }),
    ).toEqual({ product_id: 'p-1', quantity: 1000, lot: { number: 'B-7' } });
    expect(
      codeSelectorBody('p-1', {
        ...emptyCodeSelector(false),
        quantity: '5',
        lot_number: ' N-1 ',
        manufactured_on: '2026-01-01',
        expires_on: '2028-01-01',
      }),
    ).toEqual({
      product_id: 'p-1',
      quantity: 5,
      lot: { number: 'N-1', manufactured_on: '2026-01-01', expires_on: '2028-01-01' },
    });
  });
});
