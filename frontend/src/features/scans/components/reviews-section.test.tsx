import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { useAppStore } from '@/stores/app-store';
import type { Review } from '../store/reviews-slice';
import { ReviewsSection } from './reviews-section';

const session = (role: 'manager' | 'worker'): SessionInfo => ({
  ...adminSession,
  user: { ...adminSession.user, id: `u-${role}`, name: `A ${role}`, role },
});

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

const MARKUP = '<img src=x onerror="alert(1)"><b>bold</b> & <script>alert(2)</script>';

const reviews = [
  review('r1', { body: MARKUP, rating: 2 }),
  review('r2', { product_id: 'p2', product_name: 'Tea', skuid: 'TEA-1', body: '', rating: 5 }),
  review('r3', { hidden: true, body: 'Rude words' }),
];

type Handlers = Parameters<typeof mockApi>[0];

function setup(handlers: Handlers = {}, who: SessionInfo = adminSession) {
  signInAs(who);
  const api = mockApi({
    'GET /api/reviews': () => json(200, { reviews }),
    'PATCH /api/reviews/r1': (call) =>
      json(200, { ...reviews[0], hidden: (call.body as { hidden: boolean }).hidden }),
    'PATCH /api/reviews/r3': (call) =>
      json(200, { ...reviews[2], hidden: (call.body as { hidden: boolean }).hidden }),
    ...handlers,
  });
  return { ...api, ...renderPage(<ReviewsSection />) };
}

const reviewCalls = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/reviews');

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Reviews', () => {
  it('lists reviews: stars with a text alternative, plain text, product, date and state', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Reviews' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByRole('img', { name: '2 out of 5 stars' })).toHaveTextContent(
      '★★☆☆☆',
    );
    expect(rows[1]).toHaveTextContent(/Aspirin 100.*ASP-100/);
    expect(rows[1]).toHaveTextContent('Nov 20, 2026');
    expect(rows[1]).toHaveTextContent('Visible');
    expect(within(rows[2]!).getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('No text, a rating only');
    expect(rows[3]).toHaveTextContent('Hidden');
    expect(screen.getByText('3 reviews, newest first.')).toBeInTheDocument();
  });

  it('shows a review’s markup as text, never as HTML', async () => {
    setup();
    const text = await screen.findByText(MARKUP);
    expect(text.textContent).toBe(MARKUP);
    expect(text.children).toHaveLength(0);
    const table = screen.getByRole('table', { name: 'Reviews' });
    expect(table.querySelector('img, b, script')).toBeNull();
  });

  it('sends the filters to the server and says when nothing matches', async () => {
    const { user, calls } = setup();
    await screen.findByRole('table', { name: 'Reviews' });
    const form = within(screen.getByRole('form', { name: 'Review filters' }));
    // The product filter lists the products the reviews name.
    expect(form.getByLabelText('Product')).toHaveTextContent(/All products.*Aspirin 100.*Tea/);

    await user.selectOptions(form.getByLabelText('Product'), 'Tea');
    await user.selectOptions(form.getByLabelText('Rating'), '5 stars');
    await user.selectOptions(form.getByLabelText('Shown'), 'Hidden only');
    await waitFor(() => expect(reviewCalls(calls)).toHaveLength(4));
    expect(Object.fromEntries(reviewCalls(calls)[3]!.url.searchParams)).toEqual({
      product_id: 'p2',
      rating: '5',
      hidden: 'true',
    });
    for (const call of reviewCalls(calls)) {
      expect(call.headers.get('x-csrf-token')).toBe('csrf-test-token');
    }
  });

  it('says “No reviews match these filters.” when a filter leaves none', async () => {
    const { user } = setup({
      'GET /api/reviews': (call) =>
        json(200, { reviews: call.url.searchParams.has('rating') ? [] : reviews }),
    });
    await screen.findByRole('table', { name: 'Reviews' });
    await user.selectOptions(screen.getByLabelText('Rating'), '1 star');
    expect(await screen.findByText('No reviews match these filters.')).toBeInTheDocument();
  });

  it('has an empty state when there are no reviews at all', async () => {
    setup({ 'GET /api/reviews': () => json(200, { reviews: [] }) });
    expect(await screen.findByText(/^No reviews yet\./)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Reviews' })).not.toBeInTheDocument();
  });

  it('shows the spec’s message when the list fails, and tries again', async () => {
    let fail = true;
    const { user } = setup({
      'GET /api/reviews': () =>
        fail ? json(500, { error: 'boom', code: 'internal' }) : json(200, { reviews }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch reviews. Status: 500',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Reviews' })).toBeInTheDocument();
  });

  it('says ‘CSRF token is missing’ and calls nothing without a token', async () => {
    const { calls } = setup();
    // A session without its token (it was removed in another tab, say).
    act(() => useAppStore.setState((s) => ({ auth: { ...s.auth, csrfToken: null } })));
    await act(async () => {
      const { loadReviews } = await import('../api/reviews-api');
      await loadReviews();
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('CSRF token is missing');
    expect(reviewCalls(calls).every((c) => c.headers.get('x-csrf-token'))).toBe(true);
  });

  it('admins hide a review and show it again, with a toast each time', async () => {
    const { user, calls } = setup();
    const table = await screen.findByRole('table', { name: 'Reviews' });
    const row = within(table).getAllByRole('row')[1]!;
    await user.click(within(row).getByRole('button', { name: /^Hide the review/ }));
    expect(
      await screen.findByText('Review hidden. Scan pages no longer show it.'),
    ).toBeInTheDocument();
    expect(row).toHaveTextContent('Hidden');
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.url.pathname).toBe('/api/reviews/r1');
    expect(patch.body).toEqual({ hidden: true });

    await user.click(within(row).getByRole('button', { name: /^Show the review/ }));
    expect(await screen.findByText('Review shown again on scan pages.')).toBeInTheDocument();
    expect(row).toHaveTextContent('Visible');
  });

  it('managers may hide reviews too; a refusal is a toast with the server’s reason', async () => {
    const { user } = setup(
      {
        'PATCH /api/reviews/r3': () => json(404, { error: 'No such review.', code: 'not_found' }),
      },
      session('manager'),
    );
    const table = await screen.findByRole('table', { name: 'Reviews' });
    const row = within(table).getAllByRole('row')[3]!;
    await user.click(within(row).getByRole('button', { name: /^Show the review “Rude words”/ }));
    expect(await screen.findByText('No such review.')).toBeInTheDocument();
    expect(row).toHaveTextContent('Hidden');
  });

  it('workers read the reviews but have no hide button', async () => {
    setup({}, session('worker'));
    const table = await screen.findByRole('table', { name: 'Reviews' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });
});
