import { describe, expect, it } from 'vitest';
import { codesProblem, quantityProblem } from './forms';

describe('manufacturing forms', () => {
  it('takes quantities as the server does', () => {
    for (const ok of ['1', '0.5', '12.125', '999999999']) expect(quantityProblem(ok)).toBeNull();
    for (const bad of ['', '0', '0.000', '-1', '1.2345', '1e3', '01', 'abc'])
      expect(quantityProblem(bad)).not.toBeNull();
  });

  it('takes an optional code count of 1 to 10,000,000', () => {
    expect(codesProblem('')).toBeNull();
    expect(codesProblem('25')).toBeNull();
    expect(codesProblem('10000000')).toBeNull();
    for (const bad of ['0', '10000001', '1.5', '-3', 'x']) expect(codesProblem(bad)).not.toBeNull();
  });
});
