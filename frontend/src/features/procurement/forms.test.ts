import { describe, expect, it } from 'vitest';
import type { OrderDetail } from './api/procurement-api';
import {
  billBody,
  emptyBill,
  emptyOrder,
  hasErrors,
  orderBody,
  receiptBody,
  subtract,
  validateBill,
  validateOrder,
  validateReceipt,
} from './forms';

const order = {
  id: 'o-1',
  number: 'PO-000001',
  currency: 'EUR',
  lines: [
    {
      id: 'l-1',
      position: 1,
      product_name: 'Aspirin',
      quantity: '100',
      unit_price: '2.50',
      received_quantity: '60',
      receivable_quantity: '45',
      billed_quantity: '20.5',
    },
    {
      id: 'l-2',
      position: 2,
      product_name: 'Serum',
      quantity: '5',
      unit_price: '4.00',
      received_quantity: '0',
      receivable_quantity: '5.25',
      billed_quantity: '0',
    },
  ],
} as unknown as OrderDetail;

describe('the order form', () => {
  it('names every missing field and keeps amounts as decimal strings', () => {
    const errors = validateOrder(emptyOrder());
    expect(errors.supplier_id).toBeTruthy();
    expect(errors.expected_on).toBeTruthy();
    expect(errors.lines[0]?.product_id).toBeTruthy();
    expect(errors.lines[0]?.quantity).toBeTruthy();
    expect(hasErrors(errors)).toBe(true);

    const values = {
      supplier_id: 's-1',
      expected_on: '2030-01-15',
      currency: 'eur',
      lines: [{ product_id: 'p-1', quantity: '007.50', unit_price: '0,5' }],
    };
    expect(hasErrors(validateOrder(values))).toBe(false);
    expect(orderBody(values)).toEqual({
      supplier_id: 's-1',
      expected_on: '2030-01-15',
      currency: 'EUR',
      lines: [{ product_id: 'p-1', quantity: '7.50', unit_price: '0.5' }],
    });
    expect(
      validateOrder({ ...values, lines: [{ ...values.lines[0]!, quantity: '-1' }] }).lines[0]
        ?.quantity,
    ).toBeTruthy();
  });
});

describe('the receipt form', () => {
  it('sends only the lines with a quantity and refuses more than the tolerance', () => {
    const values = {
      location_id: 'loc',
      lines: [
        { line_id: 'l-1', quantity: '46', lot_number: 'A1', expires_on: '' },
        { line_id: 'l-2', quantity: '', lot_number: '', expires_on: '' },
      ],
    };
    expect(validateReceipt(values, order).lines[0]?.quantity).toContain('At most 45');
    const ok = {
      ...values,
      lines: [{ ...values.lines[0]!, quantity: '45', expires_on: '2031-01-01' }, values.lines[1]!],
    };
    expect(hasErrors(validateReceipt(ok, order))).toBe(false);
    expect(receiptBody(ok)).toEqual({
      location_id: 'loc',
      lines: [{ line_id: 'l-1', quantity: '45', lot_number: 'A1', expires_on: '2031-01-01' }],
    });
    const none = {
      location_id: 'loc',
      lines: values.lines.map((l) => ({ ...l, quantity: '', lot_number: '' })),
    };
    expect(validateReceipt(none, order).form).toBeTruthy();
    const badLot = { ...ok, lines: [{ ...ok.lines[0]!, lot_number: 'has space' }] };
    expect(validateReceipt(badLot, order).lines[0]?.lot_number).toBeTruthy();
  });
});

describe('the bill form', () => {
  it('starts from what was received and not billed, at the order price', () => {
    const values = emptyBill(order);
    expect(values.lines).toEqual([
      { line_id: 'l-1', quantity: '39.5', unit_price: '2.50' },
      { line_id: 'l-2', quantity: '', unit_price: '4.00' },
    ]);
    expect(validateBill(values).number).toBeTruthy();
    const named = { ...values, number: ' INV-1 ' };
    expect(hasErrors(validateBill(named))).toBe(false);
    expect(billBody('o-1', named)).toEqual({
      purchase_order_id: 'o-1',
      number: 'INV-1',
      lines: [{ line_id: 'l-1', quantity: '39.5', unit_price: '2.50' }],
    });
  });

  it('subtracts decimals exactly', () => {
    expect(subtract('60', '20.5')).toBe('39.5');
    expect(subtract('0.3', '0.1')).toBe('0.2');
    expect(subtract('10', '10')).toBe('0');
  });
});
