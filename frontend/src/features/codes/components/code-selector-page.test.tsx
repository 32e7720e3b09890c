import { act, screen, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { ApiResult } from '@/lib/api/call-api';
import type { SessionInfo } from '@/lib/api/types';
import { fakeTimeouts, settle, tick } from '@/testing/fake-timeouts';
import { json, mockApi, type RecordedCall } from '@/testing/mock-api';
import {
  adminSession,
  clientModules,
  moduleCatalogue,
  renderPage,
  signInAs,
} from '@/testing/render';
import type { CodeJob } from '../api/codes-api';
import { PRODUCT_ID, codeJob, jobList } from '../test-data';
import { CodeSelectorPage, type SelectorCatalogue } from './code-selector-page';

const session = (role: 'admin' | 'employee'): SessionInfo => ({
  ...adminSession,
  user: { ...adminSession.user, role, clientId: 'clientA' },
  allowedPaths: ['/', '/clientA', '/gme', '/profile'],
  modules: clientModules,
  moduleCatalogue,
});

const companies = [
  { id: 'c-1', cin: 'L24230MH1995PLC093214', name: 'A Laboratories Ltd' },
  { id: 'c-2', cin: 'U24239GJ2008PTC052871', name: 'A Formulations Pvt Ltd' },
];

const catalogue: SelectorCatalogue = {
  products: [
    { id: PRODUCT_ID, product_name: 'Paracetamol 500', skuid: 'PCM-500', gtin: '08901234567890' },
  ],
  batches: [
    {
      product_id: PRODUCT_ID,
      number: 'B-2026-01',
      manufactured_on: '2026-01-01',
      expires_on: '2028-12-31',
    },
  ],
};

const earlier = codeJob({
  id: 'job-old',
  quantity: 200,
  generated: 200,
  lot: { number: 'B-2026-01', expires_on: '2028-12-31' },
  lot_id: 'lot-1',
});

const started = (generated: number): CodeJob =>
  codeJob({
    id: 'job-new',
    status: generated === 5000 ? 'done' : 'running',
    quantity: 5000,
    generated,
    lot: { number: 'B-2026-01', expires_on: '2028-12-31' },
    lot_id: 'lot-1',
    created_at: '2026-04-01T10:00:00Z',
  });

/** Answers `answers` in turn (the last one again after that). */
function inTurn(...answers: CodeJob[]) {
  let n = 0;
  return () => json(200, answers[Math.min(n++, answers.length - 1)]);
}

function setup(role: 'admin' | 'employee' = 'admin', handlers = {}) {
  signInAs(session(role));
  const api = mockApi({
    'GET /api/code-jobs': () => json(200, jobList([earlier])),
    ...handlers,
  });
  const load = vi.fn((): Promise<ApiResult<SelectorCatalogue>> =>
    Promise.resolve({ ok: true, data: catalogue }),
  );
  const view = renderPage(
    <CodeSelectorPage
      companies={{ ok: true, data: companies }}
      onRetry={() => undefined}
      loadCatalogue={load}
    />,
    { route: '/gme/codeDownload' },
  );
  return { ...api, ...view, load };
}

const posts = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'POST');
async function chooseProduct(user: ReturnType<typeof setup>['user']) {
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Company (CIN)' }), 'c-1');
  await user.selectOptions(await screen.findByRole('combobox', { name: 'Product' }), PRODUCT_ID);
  return within(await screen.findByRole('form', { name: 'Generate codes' }));
}

afterEach(() => {
  vi.useRealTimers();
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Code selector (/gme/codeDownload)', () => {
  it('generates codes of a company’s product in an existing batch, follows the job, then offers its downloads', async () => {
    const { user, calls, load } = setup('admin', {
      'POST /api/code-jobs': () => json(202, started(0)),
      'GET /api/code-jobs/job-new': inTurn(started(2500), started(5000)),
    });
    const form = await chooseProduct(user);
    expect(load).toHaveBeenCalledWith('c-1');
    // The product's batch is offered, with its dates.
    expect(form.getByRole('radio', { name: 'An existing batch' })).toBeChecked();
    await user.selectOptions(form.getByLabelText('Batch (lot number)'), 'B-2026-01');
    expect(
      form.getByRole('option', { name: /B-2026-01 \(made .*, expires .*\)/ }),
    ).toBeInTheDocument();
    await user.type(form.getByLabelText('Quantity'), '5000');

    fakeTimeouts();
    await act(() => form.getByRole('button', { name: 'Generate codes' }).click());
    await settle();
    expect(posts(calls)[0]!.body).toEqual({
      product_id: PRODUCT_ID,
      quantity: 5000,
      lot: { number: 'B-2026-01' },
    });
    const section = within(screen.getByRole('region', { name: 'Your codes' }));
    expect(section.getByRole('progressbar', { name: 'Codes generated' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    await tick(1000);
    expect(section.getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '2,500 of 5,000 codes',
    );
    expect(section.queryByRole('link')).not.toBeInTheDocument();
    await tick(1000);
    expect(section.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(section.getByText(/generated: download them/)).toBeInTheDocument();
    expect(section.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/code-jobs/job-new/codes.csv',
    );
    expect(section.getByRole('link', { name: 'Download ZIP' })).toHaveAttribute(
      'href',
      '/api/code-jobs/job-new/codes.zip',
    );
    // Done: no more asking.
    const asked = calls.filter((c) => c.url.pathname === '/api/code-jobs/job-new').length;
    await tick(10_000);
    expect(calls.filter((c) => c.url.pathname === '/api/code-jobs/job-new')).toHaveLength(asked);
  });

  it('asks a new batch for its lot number and both dates before sending', async () => {
    const { user, calls } = setup('admin', {
      'POST /api/code-jobs': () => json(202, started(0)),
      'GET /api/code-jobs/job-new': () => json(200, started(5000)),
    });
    const form = await chooseProduct(user);
    await user.click(form.getByRole('radio', { name: 'A new batch' }));
    await user.type(form.getByLabelText('Quantity'), '10');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    expect(form.getByText('Enter the new batch’s lot number.')).toBeInTheDocument();
    expect(form.getByText('Enter the manufacturing date.')).toBeInTheDocument();
    expect(form.getByText('Enter the expiry date.')).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(0);

    await user.type(form.getByLabelText('Lot number'), 'B-2026-02');
    await user.type(form.getByLabelText('Manufactured on'), '2026-04-01');
    await user.type(form.getByLabelText('Expires on'), '2028-03-31');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    await screen.findByRole('region', { name: 'Your codes' });
    expect(posts(calls)[0]!.body).toEqual({
      product_id: PRODUCT_ID,
      quantity: 10,
      lot: { number: 'B-2026-02', manufactured_on: '2026-04-01', expires_on: '2028-03-31' },
    });
  });

  it('shows the server’s refusal (the code quota) above the form', async () => {
    const { user } = setup('admin', {
      'POST /api/code-jobs': () =>
        json(403, { error: 'This job needs 5000 codes, but only 10 remain.', code: 'code_quota' }),
    });
    const form = await chooseProduct(user);
    await user.selectOptions(form.getByLabelText('Batch (lot number)'), 'B-2026-01');
    await user.type(form.getByLabelText('Quantity'), '5000');
    await user.click(form.getByRole('button', { name: 'Generate codes' }));
    expect(
      await form.findByText('This job needs 5000 codes, but only 10 remain.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your codes' })).not.toBeInTheDocument();
  });

  it('lets employees download the codes already generated, without the form', async () => {
    const { user } = setup('employee');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Company (CIN)' }), 'c-1');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Product' }), PRODUCT_ID);
    await screen.findByRole('table', { name: 'Code jobs' });
    expect(screen.queryByRole('form', { name: 'Generate codes' })).not.toBeInTheDocument();
    expect(screen.getByText(/admins generate codes/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^CSV:/ })).toHaveAttribute(
      'href',
      '/api/code-jobs/job-old/codes.csv',
    );
  });

  it('says when there are no companies yet', () => {
    signInAs(session('admin'));
    mockApi({});
    renderPage(
      <CodeSelectorPage
        companies={{ ok: true, data: [] }}
        onRetry={() => undefined}
        loadCatalogue={() => Promise.resolve({ ok: true, data: catalogue })}
      />,
    );
    expect(screen.getByText(/No companies yet/)).toBeInTheDocument();
  });
});
