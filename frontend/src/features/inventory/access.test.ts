import { canCreateLots, canManageInventory, canRecordStock } from './access';

describe('inventory access (the policy’s call rows, mirrored)', () => {
  it('lets workers record moves and reservations, but not manage locations, rules or lots', () => {
    expect(canRecordStock('worker')).toBe(true);
    expect(canManageInventory('worker')).toBe(false);
    expect(canCreateLots('worker')).toBe(false);
  });

  it('lets admins and managers do everything', () => {
    for (const role of ['admin', 'manager'] as const) {
      expect(canRecordStock(role)).toBe(true);
      expect(canManageInventory(role)).toBe(true);
      expect(canCreateLots(role)).toBe(true);
    }
  });

  it('gives nothing to no one and to platform admins', () => {
    for (const role of [null, undefined, 'platform_admin'] as const) {
      expect(canRecordStock(role)).toBe(false);
      expect(canManageInventory(role)).toBe(false);
      expect(canCreateLots(role)).toBe(false);
    }
  });
});
