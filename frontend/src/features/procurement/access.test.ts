import { describe, expect, it } from 'vitest';
import { canApproveMismatch, canBuy, canReceive } from './access';

describe('procurement access', () => {
  it('lets admins and managers buy, and every member receive', () => {
    expect(canBuy('admin')).toBe(true);
    expect(canBuy('manager')).toBe(true);
    expect(canBuy('worker')).toBe(false);
    expect(canBuy('employee')).toBe(false);
    expect(canBuy(null)).toBe(false);
    for (const role of ['admin', 'manager', 'worker', 'employee'] as const) {
      expect(canReceive(role)).toBe(true);
    }
    expect(canReceive('platform_admin')).toBe(false);
  });

  it('leaves mismatched bills to admins', () => {
    expect(canApproveMismatch('admin')).toBe(true);
    expect(canApproveMismatch('manager')).toBe(false);
  });
});
