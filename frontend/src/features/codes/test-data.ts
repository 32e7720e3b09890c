import type { CodeJob, CodeJobList, CodeLot, CodeLotList } from './api/codes-api';

export const PRODUCT_ID = '6f1c1f7e-8a39-4c55-9d55-3f0f3a1e2b10';

/** A code job for tests, with `overrides`. */
export function codeJob(overrides: Partial<CodeJob> & { id: string }): CodeJob {
  return {
    product_id: PRODUCT_ID,
    status: 'done',
    quantity: 1000,
    generated: 1000,
    gtin: '04006381333931',
    resolver_base: 'https://id.example.com',
    created_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** A `listCodeJobs` answer for tests. */
export function jobList(jobs: CodeJob[], quota = 5_000_000, remaining?: number): CodeJobList {
  return {
    jobs,
    code_quota: quota,
    qr_codes_remaining: remaining ?? quota - jobs.reduce((sum, job) => sum + job.quantity, 0),
  };
}

/** A batch (lot) of `listCodeLots` for tests, with `overrides`. */
export function codeLot(overrides: Partial<CodeLot> & { id: string; number: string }): CodeLot {
  return {
    product_id: PRODUCT_ID,
    product_name: 'Cetirizine 10 mg',
    gtin: '04006381333931',
    codes: 1000,
    pending: 0,
    jobs: 1,
    last_job_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** A `listCodeLots` answer for tests. */
export function lotList(lots: CodeLot[], more = false): CodeLotList {
  return { lots, more };
}
