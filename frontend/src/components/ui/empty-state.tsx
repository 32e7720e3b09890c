import type { ReactNode } from 'react';

/** A card saying a list has nothing in it yet, and what to do about it. */
export function EmptyState({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="card empty">
      {icon}
      <p>{children}</p>
    </div>
  );
}
