import { formatDateTime, formatNumber } from '@/lib/format';
import type { CodeJob, CodeJobStatus, ProductList } from './api/labels-api';

/** A code job as the label pages offer it: what it is, for people. */
export interface CodeJobChoice {
  id: string;
  status: CodeJobStatus;
  /** The product's name, or `GTIN …` when the product is not among the active ones. */
  product: string;
  lot: string | null;
  /** Codes generated: the labels a print job of it makes. */
  codes: number;
  created_at: string;
}

/** Product id → name, from the product list (read without trusting its shape). */
export function productNames(list: ProductList | null | undefined): Map<string, string> {
  const products = Array.isArray(list?.products) ? list.products : [];
  return new Map(products.map((p) => [p.id, p.product_name]));
}

export function codeJobChoices(
  jobs: readonly CodeJob[],
  names: ReadonlyMap<string, string>,
): CodeJobChoice[] {
  return jobs.map((job) => ({
    id: job.id,
    status: job.status,
    product: names.get(job.product_id) ?? `GTIN ${job.gtin}`,
    lot: job.lot?.number ?? null,
    codes: job.generated,
    created_at: job.created_at,
  }));
}

/** Jobs whose codes can be printed: done, with codes. */
export function printable(choices: readonly CodeJobChoice[]): CodeJobChoice[] {
  return choices.filter((c) => c.status === 'done' && c.codes > 0);
}

/** `lot L1 · 30 codes` (or `no lot · 30 codes`). */
export function codeJobDetail(choice: CodeJobChoice): string {
  const lot = choice.lot ? `lot ${choice.lot}` : 'no lot';
  return `${lot} · ${formatNumber(choice.codes)} ${choice.codes === 1 ? 'code' : 'codes'}`;
}

/** `Green tea — lot L1 · 30 codes · Mar 1, 2026, 10:00 AM`, for a select. */
export function codeJobOptionLabel(choice: CodeJobChoice): string {
  return `${choice.product} — ${codeJobDetail(choice)} · ${formatDateTime(choice.created_at)}`;
}
