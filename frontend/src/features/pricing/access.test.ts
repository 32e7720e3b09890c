import { describe, expect, it } from 'vitest';
import { canEditPrices } from './access';

describe('pricing access', () => {
  it('lets admins and managers edit lists, and nobody else', () => {
    expect(canEditPrices('admin')).toBe(true);
    expect(canEditPrices('manager')).toBe(true);
    expect(canEditPrices('worker')).toBe(false);
    expect(canEditPrices('employee')).toBe(false);
    expect(canEditPrices(null)).toBe(false);
    expect(canEditPrices(undefined)).toBe(false);
  });
});
