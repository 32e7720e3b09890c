import { describe, expect, it } from 'vitest';
import type { PriceList } from './api/pricing-api';
import {
  emptyList,
  emptyQuote,
  hasErrors,
  listBody,
  listValues,
  money,
  quoteQuery,
  scopeLabel,
  validateList,
  validateQuote,
  validityLabel,
  type ListValues,
} from './forms';

function filled(change: (v: ListValues) => void = () => {}): ListValues {
  const v = emptyList();
  v.name = '  Retail 2026 ';
  v.currency = 'eur';
  v.valid_from = '2026-01-01';
  v.items = [
    {
      product_id: 'p-1',
      breaks: [
        { min_quantity: '1', unit_price: '10' },
        { min_quantity: '10', unit_price: '9,5' },
      ],
    },
  ];
  change(v);
  return v;
}

describe('the price list form', () => {
  it('sends decimal strings, normalised, and leaves out what is empty', () => {
    const v = filled();
    expect(hasErrors(validateList(v))).toBe(false);
    expect(listBody(v)).toEqual({
      name: 'Retail 2026',
      currency: 'EUR',
      valid_from: '2026-01-01',
      tiering: 'volume',
      items: [
        {
          product_id: 'p-1',
          breaks: [
            { min_quantity: '1', unit_price: '10' },
            { min_quantity: '10', unit_price: '9.5' },
          ],
        },
      ],
    });
    const scoped = listBody(
      filled((x) => {
        x.valid_to = '2026-12-31';
        x.customer_group = 'wholesale';
      }),
    );
    expect(scoped.valid_to).toBe('2026-12-31');
    expect(scoped.customer_group).toBe('wholesale');
  });

  it('names each mistake where it is', () => {
    const errors = validateList(
      filled((v) => {
        v.name = ' ';
        v.currency = 'EURO';
        v.valid_to = '2025-12-31';
        v.customer_group = 'Wholesale';
        v.items.push({ product_id: 'p-1', breaks: [{ min_quantity: '0', unit_price: '-1' }] });
        v.items[0]!.breaks[1]!.min_quantity = '1';
      }),
    );
    expect(errors.name).toBe('Enter a name.');
    expect(errors.currency).toMatch(/three letters/);
    expect(errors.valid_to).toMatch(/before the first/);
    expect(errors.customer_group).toMatch(/lower-case/);
    expect(errors.items[0]!.breaks[1]!.min_quantity).toBe('Start above the break before it (1).');
    expect(errors.items[1]!.product_id).toMatch(/already/);
    expect(errors.items[1]!.breaks[0]!.min_quantity).toMatch(/above zero/);
    expect(errors.items[1]!.breaks[0]!.unit_price).toMatch(/0 or more/);
    expect(hasErrors(errors)).toBe(true);
  });

  it('compares breaks as decimals, never as text or floats', () => {
    const ok = filled((v) => {
      v.items[0]!.breaks = [
        { min_quantity: '9', unit_price: '1' },
        { min_quantity: '10', unit_price: '1' },
        { min_quantity: '10.001', unit_price: '0.000001' },
      ];
    });
    expect(hasErrors(validateList(ok))).toBe(false);
    const tooFine = filled((v) => {
      v.items[0]!.breaks[0]!.unit_price = '0.0000001';
    });
    expect(validateList(tooFine).items[0]!.breaks[0]!.unit_price).toMatch(/6 decimal places/);
  });

  it('wants whole-number breaks in a graduated list', () => {
    const v = filled((x) => {
      x.tiering = 'graduated';
      x.items[0]!.breaks[1]!.min_quantity = '10.5';
    });
    expect(validateList(v).items[0]!.breaks[1]!.min_quantity).toMatch(/whole number/);
    v.items[0]!.breaks[1]!.min_quantity = '10.000';
    expect(hasErrors(validateList(v))).toBe(false);
  });

  it('fills the form from a stored list to replace it', () => {
    const list = {
      id: 'l-1',
      name: 'Wholesale',
      currency: 'JPY',
      minor_units: 0,
      valid_from: '2026-01-01',
      customer_group: 'wholesale',
      tiering: 'graduated',
      version: 3,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      items: [
        {
          product_id: 'p-1',
          product_name: 'Tea',
          breaks: [{ min_quantity: '1', unit_price: '120' }],
        },
      ],
    } satisfies PriceList;
    const v = listValues(list);
    expect(v.valid_to).toBe('');
    expect(v.customer_group).toBe('wholesale');
    expect(listBody(v).items[0]!.breaks).toEqual([{ min_quantity: '1', unit_price: '120' }]);
    expect(scopeLabel(list)).toBe('Group wholesale');
    expect(scopeLabel({ customer_group: undefined })).toBe('Default (every customer)');
    expect(validityLabel(list)).toBe('from 2026-01-01');
    expect(validityLabel({ valid_from: '2026-01-01', valid_to: '2026-06-30' })).toBe(
      '2026-01-01 – 2026-06-30',
    );
  });
});

describe('the quote form', () => {
  it('asks for a product and a quantity; customer and day are optional', () => {
    const v = emptyQuote();
    expect(validateQuote(v).product_id).toBe('Choose the product.');
    v.product_id = 'p-1';
    v.quantity = '2,5';
    expect(validateQuote(v)).toEqual({});
    expect(quoteQuery(v)).toEqual({ product_id: 'p-1', quantity: '2.5' });
    v.customer_id = 'c-1';
    v.on = '2026-03-01';
    expect(quoteQuery(v)).toEqual({
      product_id: 'p-1',
      quantity: '2.5',
      customer_id: 'c-1',
      on: '2026-03-01',
    });
    v.quantity = '0';
    expect(validateQuote(v).quantity).toMatch(/above zero/);
  });

  it('shows money exactly as the server wrote it', () => {
    expect(money('0.30', 'EUR')).toBe('0.30 EUR');
    expect(money('101', 'JPY')).toBe('101 JPY');
    expect(money('1.235', 'BHD')).toBe('1.235 BHD');
  });
});
