import { fileProblem, percent, rowLabel } from './batch-updates';

describe('batch updates', () => {
  it('takes .csv and .xlsx files up to 200 MB, and no empty ones', () => {
    expect(fileProblem({ name: 'b.CSV', size: 10 })).toBeNull();
    expect(fileProblem({ name: 'b.xlsx', size: 200 * 1024 * 1024 })).toBeNull();
    expect(fileProblem({ name: 'b.xls', size: 10 })).toMatch(/not a \.csv or \.xlsx/);
    expect(fileProblem({ name: 'b.csv', size: 0 })).toMatch(/empty/);
    expect(fileProblem({ name: 'b.csv', size: 200 * 1024 * 1024 + 1 })).toMatch(/at most 200 MB/);
  });

  it('says row 0 is the whole file', () => {
    expect(rowLabel(0)).toBe('Whole file');
    expect(rowLabel(1234)).toBe((1234).toLocaleString());
  });

  it('counts percent', () => {
    expect(percent(50, 200)).toBe(25);
    expect(percent(5, 0)).toBe(0);
    expect(percent(300, 200)).toBe(100);
  });
});
