import type { ReactNode } from 'react';

/** One figure in a `.stats` row: a label, the value, and optionally more below it. */
export function Stat({
  label,
  children,
  footer,
}: {
  label: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="stat">
      <div className="stat__label">{label}</div>
      <div className="stat__value">{children}</div>
      {footer}
    </div>
  );
}
