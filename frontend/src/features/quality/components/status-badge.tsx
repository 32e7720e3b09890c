import type { LotStatus } from '../api/quality-api';

/** Every lot status, in the order of a lot's life, with how it reads. */
export const LOT_STATUSES: readonly { value: LotStatus; label: string; tone: string }[] = [
  { value: 'quarantine', label: 'Quarantine', tone: 'badge--warning' },
  { value: 'released', label: 'Released', tone: 'badge--success' },
  { value: 'held', label: 'Held', tone: 'badge--danger' },
  { value: 'rejected', label: 'Rejected', tone: 'badge--danger' },
  { value: 'recalled', label: 'Recalled', tone: 'badge--danger' },
];

/** A lot's status as a badge (its word, never its colour alone). */
export function StatusBadge({ status }: { status: LotStatus }) {
  const known = LOT_STATUSES.find((s) => s.value === status);
  return <span className={`badge ${known?.tone ?? ''}`}>{known?.label ?? status}</span>;
}
