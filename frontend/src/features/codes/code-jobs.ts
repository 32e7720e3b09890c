import { formatNumber } from '@/lib/format';
import type { CodeJob, CodeJobStatus } from './api/codes-api';

/** A job still generating codes (queued or running); its codes cannot be downloaded yet. */
export function isActive(job: Pick<CodeJob, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** A job whose codes can be downloaded: done, or failed (the codes it generated). */
export function isDownloadable(job: Pick<CodeJob, 'status'>): boolean {
  return job.status === 'done' || job.status === 'failed';
}

/** Newest first (the server's order; kept when a job is added here). */
export function newestFirst(jobs: readonly CodeJob[]): CodeJob[] {
  return [...jobs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

export const STATUS_LABELS: Record<CodeJobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

export const STATUS_BADGES: Record<CodeJobStatus, string> = {
  queued: 'badge',
  running: 'badge badge--primary',
  done: 'badge badge--success',
  failed: 'badge badge--danger',
};

/** `12,500 of 1,000,000 codes`. */
export function progressText(job: Pick<CodeJob, 'generated' | 'quantity'>): string {
  return `${formatNumber(job.generated)} of ${formatNumber(job.quantity)} ${job.quantity === 1 ? 'code' : 'codes'}`;
}

/** `1,000,000 codes`. */
export function codesText(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'code' : 'codes'}`;
}

/** A lot of the product as its jobs show it, with the codes generated in it. */
export interface ProductLot {
  number: string;
  manufactured_on?: string;
  expires_on?: string;
  codes: number;
  jobs: number;
}

/** The product's lots, from its jobs: each number once, in the order first used (newest first). */
export function lotsOf(jobs: readonly CodeJob[]): ProductLot[] {
  const lots = new Map<string, ProductLot>();
  for (const job of jobs) {
    if (!job.lot) continue;
    const lot = lots.get(job.lot.number) ?? {
      number: job.lot.number,
      codes: 0,
      jobs: 0,
    };
    lot.manufactured_on ??= job.lot.manufactured_on;
    lot.expires_on ??= job.lot.expires_on;
    lot.codes += job.generated;
    lot.jobs += 1;
    lots.set(lot.number, lot);
  }
  return [...lots.values()];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * A calendar day (`2027-03-31`, no time zone) for people. Read as a local
 * date: `new Date('2027-03-31')` is midnight UTC, the day before west of it.
 */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const match = DAY.exec(value);
  if (!match) return value;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? value : dayFormat.format(date);
}
