import { ChatRoundLineIcon } from '@solar-icons/react/linear/chat-round-line';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/form-field';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatDate } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canModerateReviews } from '../access';
import {
  NO_REVIEW_FILTERS,
  loadReviews,
  setReviewHidden,
  type Review,
  type ReviewFilters,
} from '../api/reviews-api';
import { reviewMessages } from '../messages';

/** "★★★★☆", read out as "4 out of 5 stars". */
export function Stars({ rating }: { rating: number }) {
  const full = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars" role="img" aria-label={`${full} out of 5 stars`}>
      <span aria-hidden="true">{'★'.repeat(full)}</span>
      <span className="stars__empty" aria-hidden="true">
        {'☆'.repeat(5 - full)}
      </span>
    </span>
  );
}

const RATING_OPTIONS = [
  { value: '', label: 'Any rating' },
  ...[5, 4, 3, 2, 1].map((n) => ({
    value: String(n),
    label: `${n} ${n === 1 ? 'star' : 'stars'}`,
  })),
];

const SHOWN_OPTIONS = [
  { value: '', label: 'Visible and hidden' },
  { value: 'visible', label: 'Visible only' },
  { value: 'hidden', label: 'Hidden only' },
];

function shownValue(hidden: boolean | null): string {
  return hidden === null ? '' : hidden ? 'hidden' : 'visible';
}

function isFiltered(filters: ReviewFilters): boolean {
  return filters.productId !== '' || filters.rating !== null || filters.hidden !== null;
}

/** The start of a review's text, to name its row's button for screen readers. */
function excerpt(review: Review): string {
  const text = review.body.trim();
  if (!text) return `${review.rating}-star review of ${review.product_name || 'a product'}`;
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function ReviewFiltersForm({
  filters,
  onChange,
  products,
}: {
  filters: ReviewFilters;
  onChange: (filters: ReviewFilters) => void;
  products: readonly { id: string; name: string }[];
}) {
  return (
    <form className="range-form" aria-label="Review filters" onSubmit={(e) => e.preventDefault()}>
      <SelectField
        label="Product"
        value={filters.productId}
        onChange={(e) => onChange({ ...filters, productId: e.target.value })}
        options={[
          { value: '', label: 'All products' },
          ...products.map((p) => ({ value: p.id, label: p.name || 'Unnamed product' })),
        ]}
      />
      <SelectField
        label="Rating"
        value={filters.rating === null ? '' : String(filters.rating)}
        onChange={(e) =>
          onChange({ ...filters, rating: e.target.value ? Number(e.target.value) : null })
        }
        options={RATING_OPTIONS}
      />
      <SelectField
        label="Shown"
        value={shownValue(filters.hidden)}
        onChange={(e) =>
          onChange({
            ...filters,
            hidden: e.target.value === '' ? null : e.target.value === 'hidden',
          })
        }
        options={SHOWN_OPTIONS}
      />
    </form>
  );
}

/**
 * The reviews consumers left on the scan page: filters (product, rating,
 * visible or hidden), the list (newest first, at most 200), and for admins
 * and managers a button to hide a review from scan pages or show it again.
 * A review's text is what a stranger typed: it is shown as text, never as
 * markup.
 */
export function ReviewsSection() {
  const role = useAppStore((s) => s.auth.user?.role);
  const reviews = useAppStore((s) => s.reviews);
  const catalogue = useAppStore((s) => s.products.data.products);
  const [filters, setFilters] = useState<ReviewFilters>(NO_REVIEW_FILTERS);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const canModerate = canModerateReviews(role);

  useEffect(() => {
    void loadReviews(filters);
  }, [filters]);

  // The organisation's products, and any product a review names that the list lacks (archived).
  const products = new Map(catalogue.map((p) => [p.id, p.product_name]));
  for (const r of reviews.data)
    if (!products.has(r.product_id)) products.set(r.product_id, r.product_name);
  const productOptions = [...products]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));

  async function toggle(review: Review) {
    const hidden = !review.hidden;
    setBusy((b) => new Set(b).add(review.id));
    const result = await setReviewHidden(review.id, hidden);
    setBusy((b) => {
      const next = new Set(b);
      next.delete(review.id);
      return next;
    });
    if (result.ok) toast.success(hidden ? reviewMessages.hidden : reviewMessages.shown);
    else toast.error(result.message);
  }

  const columns: readonly Column<Review>[] = [
    { header: 'Rating', cell: (r) => <Stars rating={r.rating} /> },
    {
      header: 'Review',
      cell: (r) =>
        r.body.trim() ? (
          <p className="review__text">{r.body}</p>
        ) : (
          <span className="muted">No text, a rating only</span>
        ),
    },
    {
      header: 'Product',
      cell: (r) => (
        <>
          {r.product_name || 'Unnamed product'}
          {r.skuid ? (
            <>
              <br />
              <span className="muted">{r.skuid}</span>
            </>
          ) : null}
        </>
      ),
    },
    { header: 'Date', cell: (r) => formatDate(r.created_at) },
    {
      header: 'Shown',
      cell: (r) =>
        r.hidden ? (
          <span className="badge badge--warning">Hidden</span>
        ) : (
          <span className="badge badge--success">Visible</span>
        ),
    },
  ];

  const noneAtAll =
    reviews.status === 'succeeded' && reviews.data.length === 0 && !isFiltered(filters);

  return (
    <CardSection
      className="section"
      title={
        <>
          <ChatRoundLineIcon aria-hidden="true" /> Reviews
        </>
      }
    >
      <ReviewFiltersForm filters={filters} onChange={setFilters} products={productOptions} />
      {reviews.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadReviews(filters)}>{reviews.error}</ErrorAlert>
      ) : null}
      {reviews.status === 'loading' || reviews.status === 'idle' ? (
        <LoadingBlock label="Loading reviews…" />
      ) : null}
      {noneAtAll ? (
        <EmptyState icon={<ChatRoundLineIcon />}>
          No reviews yet. Consumers can rate a product and write a review on the page they see when
          they scan its code.
        </EmptyState>
      ) : null}
      {reviews.status === 'succeeded' && !noneAtAll ? (
        <>
          <p className="muted" aria-live="polite">
            {reviews.data.length === 1
              ? '1 review, newest first.'
              : `${reviews.data.length} reviews, newest first${reviews.data.length >= 200 ? ' (the latest 200)' : ''}.`}
          </p>
          <DataTable
            label="Reviews"
            columns={columns}
            rows={reviews.data}
            rowKey={(r) => r.id}
            empty="No reviews match these filters."
            actions={
              canModerate
                ? (r) => (
                    <Button
                      variant="secondary"
                      busy={busy.has(r.id)}
                      aria-label={`${r.hidden ? 'Show' : 'Hide'} the review “${excerpt(r)}”`}
                      onClick={() => void toggle(r)}
                    >
                      {r.hidden ? 'Show' : 'Hide'}
                    </Button>
                  )
                : undefined
            }
          />
        </>
      ) : null}
    </CardSection>
  );
}
