import { describe, expect, it } from 'vitest';
import { canRecall } from './access';

describe('canRecall', () => {
  it('lets admins and managers recall, and nobody else', () => {
    expect(canRecall('admin')).toBe(true);
    expect(canRecall('manager')).toBe(true);
    expect(canRecall('worker')).toBe(false);
    expect(canRecall('employee')).toBe(false);
    expect(canRecall(null)).toBe(false);
    expect(canRecall(undefined)).toBe(false);
  });
});
