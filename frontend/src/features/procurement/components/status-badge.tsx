import type { OrderStatus } from '../api/procurement-api';

/** Every order status, in the order of an order's life, with how it reads. */
export const ORDER_STATUSES: readonly { value: OrderStatus; label: string; tone: string }[] = [
  { value: 'draft', label: 'Draft', tone: '' },
  { value: 'confirmed', label: 'Confirmed', tone: 'badge--primary' },
  { value: 'partially_received', label: 'Partially received', tone: 'badge--warning' },
  { value: 'received', label: 'Received', tone: 'badge--success' },
  { value: 'cancelled', label: 'Cancelled', tone: 'badge--danger' },
];

/** An order's status as a badge (its word, never its colour alone). */
export function StatusBadge({ status }: { status: OrderStatus }) {
  const known = ORDER_STATUSES.find((s) => s.value === status);
  return <span className={`badge ${known?.tone ?? ''}`}>{known?.label ?? status}</span>;
}
