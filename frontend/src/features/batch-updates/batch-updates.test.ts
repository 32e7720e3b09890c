import { applyState, fileProblem, percent, rowLabel } from './batch-updates';
import { batchMessages } from './messages';
import { detail } from './test-data';

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

  it('opens Apply only after a check without problems, for the codes it read', () => {
    expect(applyState({ phase: 'idle' })).toEqual({
      codes: null,
      hint: 'Check the file first: Apply opens once the check finds no problem.',
    });
    const valid = detail({ status: 'valid', rows_read: 3 });
    expect(applyState({ phase: 'done', update: valid })).toEqual({ codes: 3, hint: null });
    const invalid = detail({ status: 'invalid', rows_read: 3, error_count: 4, error_rows: 2 });
    expect(applyState({ phase: 'done', update: invalid }).codes).toBeNull();
    expect(applyState({ phase: 'done', update: invalid }, 'form').hint).toMatch(
      /the check found problems/,
    );
    // An apply that failed its checks, or succeeded, is no check to apply after.
    const appliedInvalid = detail({ status: 'invalid', dry_run: false });
    expect(applyState({ phase: 'done', update: appliedInvalid }).codes).toBeNull();
    const applied = detail({ status: 'applied', dry_run: false, rows_read: 3 });
    expect(applyState({ phase: 'done', update: applied }).codes).toBeNull();
    expect(applyState({ phase: 'refused', status: 409, message: 'x' }).codes).toBeNull();
  });

  it('counts the rows with problems, not the problems', () => {
    expect(batchMessages.problemRows(4, 2, 2)).toBe('4 problems in 2 of 2 rows');
    expect(batchMessages.problemRows(1, 1, 1000)).toBe('1 problem in 1 of 1,000 rows');
    expect(batchMessages.problemRows(1, 0, 0)).toBe('1 problem in the file (0 rows read)');
  });
});
