import type { ResponseBody } from '@/lib/api/types';
import { initialRequestState, type RequestState, type SetSlice } from '@/lib/slice';

/** One consumer review as `GET /api/reviews` lists it (the generated shape). */
export type Review = ResponseBody<'/api/reviews', 'get', 200>['reviews'][number];

export interface ReviewsSlice {
  /**
   * The organisation's reviews (spec §3 "Reviews", §7 the reviews call) for
   * the filters last asked for, newest first, at most 200.
   */
  reviews: RequestState<Review[]>;
}

export interface ReviewsActions {
  /** A review hidden or shown again: the list keeps it, with its new state. */
  reviewChanged: (review: Review) => void;
}

export function initialReviewsSlice(): ReviewsSlice {
  return { reviews: initialRequestState<Review[]>([]) };
}

export function reviewsActions(set: SetSlice<ReviewsSlice>): ReviewsActions {
  return {
    reviewChanged: (review) =>
      set((s) => ({
        reviews: {
          ...s.reviews,
          data: s.reviews.data.map((r) => (r.id === review.id ? review : r)),
        },
      })),
  };
}
