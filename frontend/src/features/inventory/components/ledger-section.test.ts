import { moveFilters } from './ledger-section';

const empty = { product_id: '', lot_id: '', location_id: '', from: '', to: '' };

describe('moveFilters', () => {
  it('sends only what is set, and only complete days', () => {
    expect(moveFilters(empty)).toEqual({});
    expect(
      moveFilters({ ...empty, location_id: 'loc', from: '2026-11', to: '2026-11-27' }),
    ).toEqual({ location_id: 'loc', to: '2026-11-27' });
  });

  it('filters by a lot only together with its product', () => {
    expect(moveFilters({ ...empty, product_id: 'p1', lot_id: 'l1' })).toEqual({
      product_id: 'p1',
      lot_id: 'l1',
    });
    expect(moveFilters({ ...empty, lot_id: 'l1' })).toEqual({});
  });
});
