import { useId, type ReactNode } from 'react';

/** A card with a heading that names it (a `region` landmark called `title`). */
export function CardSection({
  title,
  className = 'card',
  children,
}: {
  title: ReactNode;
  /** `card` (default), or `section` for a titled group without a card. */
  className?: 'card' | 'section';
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={className} aria-labelledby={id}>
      <h2 className="card__title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}
