import { codeJobChoices, codeJobDetail, printable, productNames } from './code-job-choices';
import { isActive, newestFirst, progressText } from './print-jobs';
import { PRODUCT_ID, codeJob, printJob, productList } from './test-data';

describe('print jobs', () => {
  it('says which jobs are still printing', () => {
    expect(
      (['queued', 'running', 'done', 'failed'] as const).map((status) => isActive({ status })),
    ).toEqual([true, true, false, false]);
  });

  it('shows progress as counts of labels', () => {
    expect(progressText({ printed: 2500, total: 10_000 })).toBe('2,500 of 10,000 labels');
    expect(progressText({ printed: 0, total: 1 })).toBe('0 of 1 label');
  });

  it('orders jobs newest first', () => {
    const jobs = [
      printJob({ id: 'a', created_at: '2026-01-01T00:00:00Z' }),
      printJob({ id: 'b', created_at: '2026-03-01T00:00:00Z' }),
      printJob({ id: 'c', created_at: '2026-02-01T00:00:00Z' }),
    ];
    expect(newestFirst(jobs).map((j) => j.id)).toEqual(['b', 'c', 'a']);
  });
});

describe('code job choices', () => {
  const names = productNames(productList([{ id: PRODUCT_ID, product_name: 'Green tea' }]));

  it('names a job by its product, or by its GTIN when the product is not listed', () => {
    const [known, unknown] = codeJobChoices(
      [
        codeJob({ id: 'a', lot: { number: 'L1' }, generated: 30 }),
        codeJob({ id: 'b', product_id: 'gone', generated: 1 }),
      ],
      names,
    );
    expect(known).toMatchObject({ id: 'a', product: 'Green tea', lot: 'L1', codes: 30 });
    expect(codeJobDetail(known!)).toBe('lot L1 · 30 codes');
    expect(unknown).toMatchObject({ product: 'GTIN 04006381333931', lot: null });
    expect(codeJobDetail(unknown!)).toBe('no lot · 1 code');
  });

  it('offers only done jobs with codes for printing', () => {
    const choices = codeJobChoices(
      [
        codeJob({ id: 'done' }),
        codeJob({ id: 'running', status: 'running', generated: 10 }),
        codeJob({ id: 'failed', status: 'failed', generated: 10 }),
        codeJob({ id: 'empty', generated: 0 }),
      ],
      names,
    );
    expect(printable(choices).map((c) => c.id)).toEqual(['done']);
  });

  it('reads a product list without trusting it', () => {
    expect(productNames(null).size).toBe(0);
    expect(productNames({} as never).size).toBe(0);
  });
});
