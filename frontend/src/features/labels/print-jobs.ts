import type { Choice } from '@/components/ui/choice-field';
import { formatNumber } from '@/lib/format';
import type { PrintFormat, PrintJob, PrintJobStatus } from './api/labels-api';

/** A job still printing (queued or running): no file yet. */
export function isActive(job: Pick<PrintJob, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** Newest first (the server's order; kept when a job is added here). */
export function newestFirst(jobs: readonly PrintJob[]): PrintJob[] {
  return [...jobs].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

export const STATUS_LABELS: Record<PrintJobStatus, string> = {
  queued: 'Queued',
  running: 'Printing',
  done: 'Done',
  failed: 'Failed',
};

export const STATUS_BADGES: Record<PrintJobStatus, string> = {
  queued: 'badge',
  running: 'badge badge--primary',
  done: 'badge badge--success',
  failed: 'badge badge--danger',
};

export const FORMATS: readonly Choice<PrintFormat>[] = [
  {
    value: 'pdf',
    label: 'PDF',
    hint: 'For office and label printers: on the template’s sheet, or one label per page.',
  },
  {
    value: 'zpl',
    label: 'ZPL',
    hint: 'For Zebra thermal printers: one label at a time, whatever the sheet.',
  },
];

export const FORMAT_LABELS: Record<PrintFormat, string> = { pdf: 'PDF', zpl: 'ZPL' };

/** `2,500 of 10,000 labels`. */
export function progressText(job: Pick<PrintJob, 'printed' | 'total'>): string {
  return `${formatNumber(job.printed)} of ${formatNumber(job.total)} ${job.total === 1 ? 'label' : 'labels'}`;
}
