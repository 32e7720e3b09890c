import { canManageLogistics, canShip } from './access';

describe('logistics access (the policy’s call rows, mirrored)', () => {
  it('lets workers and client employees create, ship and deliver, but not cancel or add customers', () => {
    for (const role of ['worker', 'employee'] as const) {
      expect(canShip(role)).toBe(true);
      expect(canManageLogistics(role)).toBe(false);
    }
  });

  it('lets admins and managers do everything', () => {
    for (const role of ['admin', 'manager'] as const) {
      expect(canShip(role)).toBe(true);
      expect(canManageLogistics(role)).toBe(true);
    }
  });

  it('gives nothing to no one and to platform admins', () => {
    for (const role of [null, undefined, 'platform_admin'] as const) {
      expect(canShip(role)).toBe(false);
      expect(canManageLogistics(role)).toBe(false);
    }
  });
});
