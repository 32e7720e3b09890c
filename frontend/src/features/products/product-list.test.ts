import type { Product } from './api/products-api';
import { pageCount, pageOf, pageWindow, productCategories, queryProducts } from './product-list';
import { product } from './test-data';

describe('pageWindow (five page numbers, spec §9)', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, 3, 4, 5]],
    [2, 10, [1, 2, 3, 4, 5]],
    [3, 10, [1, 2, 3, 4, 5]],
    [4, 10, [2, 3, 4, 5, 6]],
    [7, 10, [5, 6, 7, 8, 9]],
    [9, 10, [6, 7, 8, 9, 10]],
    [10, 10, [6, 7, 8, 9, 10]],
    [99, 10, [6, 7, 8, 9, 10]],
    [0, 10, [1, 2, 3, 4, 5]],
  ])('page %i of %i shows %j', (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it('shows nothing without pages, and honours another size', () => {
    expect(pageWindow(1, 0)).toEqual([]);
    expect(pageWindow(5, 10, 3)).toEqual([4, 5, 6]);
  });

  it('pages the items', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(pageCount(items.length)).toBe(3);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(items, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageOf(items, 3)).toEqual([20, 21, 22]);
  });
});

describe('queryProducts', () => {
  const items = [
    product({
      id: '1',
      product_name: 'Oat milk',
      skuid: 'OAT-1',
      gtin: '04006381333931',
      category: 'Drinks',
      created_at: '2025-03-01T00:00:00Z',
    }),
    product({
      id: '2',
      product_name: 'almond butter',
      skuid: 'ALM-2',
      gtin: '00036000291452',
      category: 'Spreads',
      created_at: '2025-01-01T00:00:00Z',
    }),
    product({
      id: '3',
      product_name: 'Barley tea',
      skuid: 'BAR-10',
      gtin: '10614141000415',
      category: 'Drinks',
      created_at: '2025-02-01T00:00:00Z',
    }),
  ];
  const ids = (list: Product[]) => list.map((p) => p.id);
  const all = { search: '', category: '', sort: 'name' as const };

  it('sorts by name (ignoring case), SKU id, or newest first', () => {
    expect(ids(queryProducts(items, all))).toEqual(['2', '3', '1']);
    expect(ids(queryProducts(items, { ...all, sort: 'skuid' }))).toEqual(['2', '3', '1']);
    expect(ids(queryProducts(items, { ...all, sort: 'created' }))).toEqual(['1', '3', '2']);
  });

  it('searches name, SKU id and GTIN', () => {
    expect(ids(queryProducts(items, { ...all, search: 'MILK' }))).toEqual(['1']);
    expect(ids(queryProducts(items, { ...all, search: 'alm-' }))).toEqual(['2']);
    expect(ids(queryProducts(items, { ...all, search: '36000291' }))).toEqual(['2']);
    expect(ids(queryProducts(items, { ...all, search: 'nothing' }))).toEqual([]);
  });

  it('filters by category, with the search', () => {
    expect(ids(queryProducts(items, { ...all, category: 'Drinks' }))).toEqual(['3', '1']);
    expect(ids(queryProducts(items, { ...all, category: 'Drinks', search: 'tea' }))).toEqual(['3']);
    expect(productCategories(items)).toEqual(['Drinks', 'Spreads']);
  });
});
