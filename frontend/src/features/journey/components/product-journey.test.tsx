import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { initialData, useAppStore } from '@/stores/app-store';
import { json, mockApi } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { sampleJourney, sampleTraceability, shippingEvent } from '../test-data';
import { ProductJourney } from './product-journey';

const session = (role: 'admin' | 'manager' | 'worker'): SessionInfo => ({
  ...adminSession,
  user: { ...adminSession.user, role },
});

type Handlers = Parameters<typeof mockApi>[0];

function setup(role: 'admin' | 'manager' | 'worker' = 'admin', handlers: Handlers = {}) {
  useAppStore.setState(initialData());
  signInAs(session(role));
  const api = mockApi({
    'GET /api/product-journey': () => json(200, sampleJourney),
    'GET /api/traceability': () => json(200, sampleTraceability),
    ...handlers,
  });
  const view = renderPage(<ProductJourney skuid="TEA-1" archived={false} />, {
    route: '/products/p1',
  });
  return { ...api, ...view };
}

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Product journey', () => {
  it('shows the timeline oldest first and the upstream/downstream view', async () => {
    const { calls } = setup();
    const timeline = await screen.findByRole('list', { name: 'Product journey' });
    const steps = within(timeline).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('strong')?.textContent)).toEqual([
      'Codes commissioned',
      'Shipped',
      'Scanned',
    ]);
    expect(steps[0]!.textContent).toContain('500 × GTIN 09506000134352, lot L1');
    expect(steps[1]!.textContent).toContain('at GLN 9506000134352');
    expect(steps[2]!.textContent).toContain('3 scans in Germany');
    const journeyCall = calls.find((c) => c.url.pathname === '/api/product-journey')!;
    expect(journeyCall.url.searchParams.get('skuid')).toBe('TEA-1');
    expect(await screen.findByText(/Containers: SSCC 106141412345678908/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Shipped' })).getByRole('listitem').textContent,
    ).toContain('to GLN 4000001000005');
  });

  it('says the spec’s messages when a load fails, in a toast and in place', async () => {
    setup('admin', {
      'GET /api/product-journey': () => json(500, { error: 'x', code: 'internal' }),
      'GET /api/traceability': () => json(404, { error: 'No product', code: 'not_found' }),
    });
    expect(
      await screen.findAllByText('Failed to fetch product journey. Status: 500'),
    ).not.toHaveLength(0);
    expect(
      await screen.findAllByText('Failed to fetch traceability. Status: 404'),
    ).not.toHaveLength(0);
  });

  it('clears the previous product’s data when loading starts', async () => {
    useAppStore.setState(initialData());
    useAppStore.getState().loadSucceeded('productJourney', sampleJourney);
    useAppStore.getState().startLoading('productJourney');
    expect(useAppStore.getState().productJourney.data).toBeNull();
    expect(useAppStore.getState().productJourney.status).toBe('loading');
  });

  it('records a shipping step for admins and managers, and reloads', async () => {
    const { calls } = setup('manager', {
      'POST /api/epcis/steps': () => json(201, shippingEvent),
    });
    const form = await screen.findByRole('form', { name: 'Record a step' });
    fireEvent.change(within(form).getByLabelText('Step'), { target: { value: 'shipping' } });
    fireEvent.change(within(form).getByLabelText('Location (GLN)'), {
      target: { value: '9506000134353' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record step' }));
    expect(await within(form).findByText('This GLN has a wrong check digit.')).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('Location (GLN)'), {
      target: { value: '9506000134352' },
    });
    fireEvent.change(within(form).getByLabelText('Destination (GLN)'), {
      target: { value: '4000001000005' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Record step' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      step: 'shipping',
      skuid: 'TEA-1',
      location: '9506000134352',
      destination: '4000001000005',
    });
    await waitFor(() =>
      expect(calls.filter((c) => c.url.pathname === '/api/product-journey')).toHaveLength(2),
    );
  });

  it('shows workers no form', async () => {
    setup('worker');
    await screen.findByRole('list', { name: 'Product journey' });
    expect(screen.queryByRole('form', { name: 'Record a step' })).not.toBeInTheDocument();
  });
});
