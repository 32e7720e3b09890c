import {
  emptyLine,
  emptyShipmentForm,
  hasErrors,
  normaliseQuantity,
  shipmentBody,
  validateShipmentForm,
} from './shipment-form';

describe('the shipment form', () => {
  it('reads quantities as the server takes them', () => {
    expect(normaliseQuantity('12')).toBe('12');
    expect(normaliseQuantity(' 2,5 ')).toBe('2.5');
    expect(normaliseQuantity('007.500')).toBe('7.5');
    for (const bad of ['0', '0.000', '-1', '1.2345', '1e3', '', 'abc', '1000000000']) {
      expect(normaliseQuantity(bad)).toBeNull();
    }
  });

  it('names every missing or wrong field, line by line', () => {
    const values = emptyShipmentForm();
    values.lines.push({ ...emptyLine(), product_id: 'p', quantity: '0', package: '100' });
    const errors = validateShipmentForm(values);
    expect(errors.customer_id).toBe('Choose the customer.');
    expect(errors.from_location_id).toBeDefined();
    expect(errors.lines[0]?.product_id).toBe('Choose a product.');
    expect(errors.lines[1]?.quantity).toMatch(/above 0/);
    expect(errors.lines[1]?.package).toMatch(/1 to 99/);
    expect(hasErrors(errors)).toBe(true);
  });

  it('sends the lot only when one is chosen', () => {
    const values = {
      customer_id: 'c',
      from_location_id: 'l',
      lines: [
        { product_id: 'p', quantity: '2,5', lot_id: '', package: '1' },
        { product_id: 'q', quantity: '3', lot_id: 'lot', package: '2' },
      ],
    };
    expect(hasErrors(validateShipmentForm(values))).toBe(false);
    expect(shipmentBody(values)).toEqual({
      customer_id: 'c',
      from_location_id: 'l',
      lines: [
        { product_id: 'p', quantity: '2.5', package: 1 },
        { product_id: 'q', quantity: '3', package: 2, lot_id: 'lot' },
      ],
    });
  });
});
