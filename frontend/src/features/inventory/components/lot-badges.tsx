import { expiryState, expiryWarning, formatDay } from '../expiry';

const STATUS_STYLE: Record<string, string> = {
  released: 'badge--success',
  quarantine: 'badge--warning',
  held: 'badge--warning',
  rejected: 'badge--danger',
  recalled: 'badge--danger',
};

const STATUS_LABEL: Record<string, string> = {
  released: 'Released',
  quarantine: 'Quarantine',
  held: 'Held',
  rejected: 'Rejected',
  recalled: 'Recalled',
};

/** A lot's status as a badge: released is green, quarantine and held amber, rejected and recalled red. */
export function LotStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${STATUS_STYLE[status] ?? ''}`}>{STATUS_LABEL[status] ?? status}</span>
  );
}

/** A lot's expiry day, with a warning badge when it has passed or is within 30 days. */
export function Expiry({ expiresOn, today }: { expiresOn?: string | null; today: string }) {
  const state = expiryState(expiresOn, today);
  const warning = expiryWarning(state);
  return (
    <span className="lot-cell">
      <span>{formatDay(expiresOn)}</span>
      {warning ? (
        <span className={`badge ${state.kind === 'expired' ? 'badge--danger' : 'badge--warning'}`}>
          {warning}
        </span>
      ) : null}
    </span>
  );
}
