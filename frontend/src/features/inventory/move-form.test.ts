import { emptyMoveForm, moveBody, validateMoveForm, type MoveFormValues } from './move-form';

const receipt = (overrides: Partial<MoveFormValues> = {}): MoveFormValues => ({
  ...emptyMoveForm(),
  product_id: 'p1',
  lot_id: 'l1',
  quantity: '12.5',
  to_location_id: 'wh',
  unit_cost: '2.40',
  currency: 'eur',
  ...overrides,
});

describe('validateMoveForm', () => {
  it('accepts a full receipt and sends its cost, currency and no "from"', () => {
    const values = receipt({ from_location_id: 'left-over', reference: '  PO-7 ' });
    expect(validateMoveForm(values)).toEqual({});
    expect(moveBody(values)).toEqual({
      product_id: 'p1',
      lot_id: 'l1',
      quantity: '12.5',
      reason: 'receipt',
      to_location_id: 'wh',
      unit_cost: '2.40',
      currency: 'EUR',
      reference: 'PO-7',
    });
  });

  it('requires a receipt’s cost and currency, and only a receipt’s', () => {
    expect(validateMoveForm(receipt({ unit_cost: '', currency: 'euro' }))).toEqual({
      unit_cost: 'Enter the unit cost of the stock arriving.',
      currency: 'Enter a three-letter currency code, such as EUR.',
    });
    const transfer = receipt({
      reason: 'transfer',
      from_location_id: 'a',
      to_location_id: 'b',
      unit_cost: '',
      currency: '',
    });
    expect(validateMoveForm(transfer)).toEqual({});
    expect(moveBody(transfer)).toEqual({
      product_id: 'p1',
      lot_id: 'l1',
      quantity: '12.5',
      reason: 'transfer',
      from_location_id: 'a',
      to_location_id: 'b',
    });
  });

  it('asks for the ends each reason has', () => {
    expect(validateMoveForm(receipt({ to_location_id: '' })).to_location_id).toBe(
      'Choose where the stock goes.',
    );
    expect(
      validateMoveForm(receipt({ reason: 'shipment', from_location_id: '' })).from_location_id,
    ).toBe('Choose where the stock is.');
    expect(
      validateMoveForm(receipt({ reason: 'transfer', from_location_id: 'a', to_location_id: 'a' }))
        .to_location_id,
    ).toBe('Choose a different location.');
    expect(
      validateMoveForm(receipt({ reason: 'adjustment', from_location_id: '', to_location_id: '' }))
        .from_location_id,
    ).toMatch(/leaves, or one it arrives in/);
  });

  it('asks for a cost whenever stock arrives from outside, whatever the reason', () => {
    const found = receipt({ reason: 'adjustment', unit_cost: '', currency: 'EUR' });
    expect(validateMoveForm(found).unit_cost).toBe('Enter the unit cost of the stock arriving.');
    const counted = receipt({ reason: 'adjustment', from_location_id: 'a', to_location_id: '' });
    expect(validateMoveForm(counted)).toEqual({});
    expect(moveBody(counted)).toEqual({
      product_id: 'p1',
      lot_id: 'l1',
      quantity: '12.5',
      reason: 'adjustment',
      from_location_id: 'a',
    });
  });

  it('drops the end a reason does not have', () => {
    const shipment = receipt({ reason: 'shipment', from_location_id: 'a', to_location_id: 'b' });
    expect(validateMoveForm(shipment)).toEqual({});
    expect(moveBody(shipment).to_location_id).toBeUndefined();
  });

  it('checks the product, lot, quantity and reference', () => {
    const errors = validateMoveForm(
      receipt({ product_id: '', lot_id: '', quantity: '1.2345', reference: 'x'.repeat(201) }),
    );
    expect(Object.keys(errors).sort()).toEqual(['lot_id', 'product_id', 'quantity', 'reference']);
    expect(validateMoveForm(receipt({ reason: 'teleport' })).reason).toBeDefined();
  });
});
