import { product } from '../test-data';
import { normaliseProductList } from './products-api';

describe('normaliseProductList', () => {
  const a = product({ id: 'a' });
  const b = product({ id: 'b' });

  it('takes the server’s numbers', () => {
    expect(normaliseProductList({ products: [a], max_products: 200, added_products: 1 })).toEqual({
      products: [a],
      maxProducts: 200,
      addedProducts: 1,
      limitKnown: true,
    });
  });

  it('defaults max to the number of items and added to 0 when absent (spec §9)', () => {
    expect(normaliseProductList({ products: [a, b] } as never)).toEqual({
      products: [a, b],
      maxProducts: 2,
      addedProducts: 0,
      limitKnown: false,
    });
    expect(normaliseProductList([a])).toMatchObject({ products: [a], maxProducts: 1 });
    expect(normaliseProductList(null)).toMatchObject({ products: [], maxProducts: 0 });
  });
});
