import { callApi, type ApiResult } from '@/lib/api/call-api';
import { useAppStore } from '@/stores/app-store';
import { reviewMessages, reviewsFailureMessage } from '../messages';
import type { Review } from '../store/reviews-slice';

export type { Review };

/** What the reviews list is narrowed to; null or '' for "any". */
export interface ReviewFilters {
  productId: string;
  rating: number | null;
  hidden: boolean | null;
}

export const NO_REVIEW_FILTERS: ReviewFilters = { productId: '', rating: null, hidden: null };

let latest = 0;

/**
 * Loads the organisation's reviews into the `reviews` slice (spec §7: the
 * reviews call carries the session's CSRF token in `x-csrf-token`). Without
 * a token no call is made and the slice fails with 'CSRF token is missing';
 * a failed call reads 'Failed to fetch reviews. Status: {status}' (spec §8).
 * Only the latest load's answer is kept.
 */
export async function loadReviews(filters: ReviewFilters = NO_REVIEW_FILTERS): Promise<void> {
  const { startLoading, loadSucceeded, loadFailed, auth } = useAppStore.getState();
  const request = ++latest;
  const token = auth.csrfToken;
  if (!token) {
    loadFailed('reviews', reviewMessages.csrfMissing);
    return;
  }
  startLoading('reviews');
  const result = await callApi((api) =>
    api.GET('/api/reviews', {
      params: {
        query: {
          ...(filters.productId ? { product_id: filters.productId } : {}),
          ...(filters.rating !== null ? { rating: filters.rating } : {}),
          ...(filters.hidden !== null ? { hidden: filters.hidden } : {}),
        },
        header: { 'x-csrf-token': token },
      },
    }),
  );
  // The filters changed while this one loaded: the later answer is the one to keep.
  if (request !== latest) return;
  if (result.ok) loadSucceeded('reviews', result.data.reviews);
  else loadFailed('reviews', reviewsFailureMessage(result));
}

/** Hides a review (kept, no longer on scan pages) or shows it again; the slice keeps the answer. */
export async function setReviewHidden(id: string, hidden: boolean): Promise<ApiResult<Review>> {
  const result = await callApi(
    (api) => api.PATCH('/api/reviews/{id}', { params: { path: { id } }, body: { hidden } }),
    reviewMessages.changeFailed,
  );
  if (result.ok) useAppStore.getState().reviewChanged(result.data);
  return result;
}
