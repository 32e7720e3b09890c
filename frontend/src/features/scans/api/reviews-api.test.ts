import { json, mockApi, networkDown } from '@/testing/mock-api';
import { adminSession, signInAs } from '@/testing/render';
import { initialData, useAppStore } from '@/stores/app-store';
import type { Review } from '../store/reviews-slice';
import { loadReviews, setReviewHidden } from './reviews-api';

const review = (id: string, more: Partial<Review> = {}): Review => ({
  id,
  product_id: 'p1',
  product_name: 'Aspirin 100',
  skuid: 'ASP-100',
  rating: 4,
  body: 'Works well.',
  created_at: '2026-11-20T10:00:00Z',
  hidden: false,
  ...more,
});

describe('loadReviews (the spec’s reviews call)', () => {
  it('sends the session’s CSRF token in x-csrf-token, and the filters as the query', async () => {
    signInAs(adminSession);
    const { calls } = mockApi({
      'GET /api/reviews': () => json(200, { reviews: [review('r1'), review('r2')] }),
    });
    const loading = loadReviews({ productId: 'p1', rating: 4, hidden: false });
    expect(useAppStore.getState().reviews.status).toBe('loading');
    await loading;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      product_id: 'p1',
      rating: '4',
      hidden: 'false',
    });
    expect(useAppStore.getState().reviews).toEqual({
      status: 'succeeded',
      data: [review('r1'), review('r2')],
      error: null,
    });
  });

  it('asks for every review when no filter is set', async () => {
    signInAs(adminSession);
    const { calls } = mockApi({ 'GET /api/reviews': () => json(200, { reviews: [] }) });
    await loadReviews();
    expect([...calls[0]!.url.searchParams]).toEqual([]);
  });

  it('without a CSRF token makes no call and fails with ‘CSRF token is missing’', async () => {
    useAppStore.setState(initialData());
    const { calls } = mockApi({ 'GET /api/reviews': () => json(200, { reviews: [] }) });
    await loadReviews();
    expect(calls).toHaveLength(0);
    expect(useAppStore.getState().reviews).toMatchObject({
      status: 'failed',
      error: 'CSRF token is missing',
    });
  });

  it.each([
    [500, { error: 'boom', code: 'internal' }],
    [403, { error: 'CSRF token is missing', code: 'csrf' }],
    [400, { error: 'rating must be from 1 to 5', code: 'invalid_input' }],
  ])('on a %i fails with ‘Failed to fetch reviews. Status: {status}’', async (status, body) => {
    signInAs(adminSession);
    mockApi({ 'GET /api/reviews': () => json(status, body) });
    await loadReviews();
    expect(useAppStore.getState().reviews).toMatchObject({
      status: 'failed',
      error: `Failed to fetch reviews. Status: ${status}`,
    });
  });

  it('with no answer at all says the network failed', async () => {
    signInAs(adminSession);
    mockApi({ 'GET /api/reviews': () => networkDown() });
    await loadReviews();
    expect(useAppStore.getState().reviews.error).toBe(
      'A network error occurred. Please check your connection.',
    );
  });

  it('keeps only the latest load’s answer', async () => {
    signInAs(adminSession);
    const answers: ((r: Response) => void)[] = [];
    mockApi({
      'GET /api/reviews': () => new Promise<Response>((resolve) => answers.push(resolve)),
    });
    const first = loadReviews();
    const second = loadReviews({ productId: '', rating: 5, hidden: null });
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(json(200, { reviews: [review('new', { rating: 5 })] }));
    await second;
    answers[0]!(json(200, { reviews: [review('old')] }));
    await first;
    expect(useAppStore.getState().reviews.data.map((r) => r.id)).toEqual(['new']);
  });
});

describe('setReviewHidden', () => {
  it('sends PATCH {hidden} with the CSRF token and keeps the answer in the list', async () => {
    signInAs(adminSession);
    useAppStore.getState().loadSucceeded('reviews', [review('r1'), review('r2')]);
    const { calls } = mockApi({
      'PATCH /api/reviews/r2': (call) =>
        json(200, review('r2', { hidden: (call.body as { hidden: boolean }).hidden })),
    });
    const result = await setReviewHidden('r2', true);
    expect(result.ok).toBe(true);
    expect(calls[0]!.body).toEqual({ hidden: true });
    expect(calls[0]!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    expect(useAppStore.getState().reviews.data.map((r) => [r.id, r.hidden])).toEqual([
      ['r1', false],
      ['r2', true],
    ]);
  });

  it('leaves the list as it was when the server refuses', async () => {
    signInAs(adminSession);
    useAppStore.getState().loadSucceeded('reviews', [review('r1')]);
    mockApi({
      'PATCH /api/reviews/r1': () =>
        json(403, { error: 'You may not do this.', code: 'forbidden' }),
    });
    const result = await setReviewHidden('r1', true);
    expect(result).toMatchObject({ ok: false, message: 'You may not do this.' });
    expect(useAppStore.getState().reviews.data[0]!.hidden).toBe(false);
  });
});
