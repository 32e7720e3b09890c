import {
  formatDay,
  isActive,
  isDownloadable,
  lotsOf,
  newestFirst,
  progressText,
} from './code-jobs';
import { codeJob } from './test-data';

describe('code jobs', () => {
  it('says which jobs are still running and which can be downloaded', () => {
    expect(
      ['queued', 'running', 'done', 'failed'].map((status) => isActive({ status } as never)),
    ).toEqual([true, true, false, false]);
    expect(
      ['queued', 'running', 'done', 'failed'].map((status) => isDownloadable({ status } as never)),
    ).toEqual([false, false, true, true]);
  });

  it('shows progress as counts', () => {
    expect(progressText({ generated: 12_500, quantity: 1_000_000 })).toBe(
      '12,500 of 1,000,000 codes',
    );
    expect(progressText({ generated: 0, quantity: 1 })).toBe('0 of 1 code');
  });

  it('orders jobs newest first', () => {
    const jobs = [
      codeJob({ id: 'a', created_at: '2026-01-01T00:00:00Z' }),
      codeJob({ id: 'b', created_at: '2026-03-01T00:00:00Z' }),
      codeJob({ id: 'c', created_at: '2026-02-01T00:00:00Z' }),
    ];
    expect(newestFirst(jobs).map((j) => j.id)).toEqual(['b', 'c', 'a']);
  });

  it('derives the lots from the jobs, each once, with their codes', () => {
    const lots = lotsOf([
      codeJob({ id: '3', generated: 10, lot: { number: 'L2' } }),
      codeJob({ id: '2', generated: 500, lot: { number: 'L1', expires_on: '2027-03-31' } }),
      codeJob({ id: '1', generated: 1000 }),
      codeJob({
        id: '0',
        generated: 200,
        lot: { number: 'L1', manufactured_on: '2026-03-01', expires_on: '2027-03-31' },
      }),
    ]);
    expect(lots).toEqual([
      { number: 'L2', codes: 10, jobs: 1 },
      {
        number: 'L1',
        manufactured_on: '2026-03-01',
        expires_on: '2027-03-31',
        codes: 700,
        jobs: 2,
      },
    ]);
  });

  it('shows a calendar day as that day, whatever the time zone', () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(2027, 2, 31),
    );
    expect(formatDay('2027-03-31')).toBe(expected);
    expect(formatDay(undefined)).toBe('—');
    expect(formatDay('soon')).toBe('soon');
  });
});
