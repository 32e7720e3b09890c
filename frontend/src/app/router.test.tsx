import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi } from '@/testing/mock-api';
import {
  adminSession,
  brandModules,
  clientModules,
  moduleCatalogue,
  signInAs,
} from '@/testing/render';
import { initialData, useAppStore } from '@/stores/app-store';
import { routes } from './router';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const workerSession: SessionInfo = {
  user: {
    id: 'u-w',
    name: 'Wendy Worker',
    email: 'worker@acme.test',
    role: 'worker',
    clientId: 'acme',
    organisationKind: 'brand',
  },
  csrfToken: 'csrf-w',
  allowedPaths: ['/', '/ui/table', '/products', '/profile', '/products/Add_product'],
  assignableRoles: [],
  modules: brandModules,
  moduleCatalogue,
};

const clientAEmployee: SessionInfo = {
  user: {
    id: 'u-e',
    name: 'Eli Employee',
    email: 'employee@clienta.test',
    role: 'employee',
    clientId: 'clientA',
    organisationKind: 'client',
  },
  csrfToken: 'csrf-e',
  allowedPaths: ['/', '/clientA', '/gme', '/profile', '/settings'],
  assignableRoles: [],
  modules: clientModules,
  moduleCatalogue,
};

function mockProductList() {
  return mockApi({
    'GET /api/product-handler': () =>
      json(200, { products: [], max_products: 200, added_products: 0 }),
  });
}

beforeEach(() => {
  useAppStore.setState(initialData());
  window.localStorage.clear();
});

describe('routes and guards', () => {
  it('sends a signed-out visitor to /auth/login, remembering the page', async () => {
    const router = renderAt('/manage_org');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirectTo=%2Fmanage_org');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a signed-in user away from /auth/login to /', async () => {
    signInAs(adminSession);
    mockApi({});
    const router = renderAt('/auth/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends unknown paths to /auth/404, signed in or not', async () => {
    let router = renderAt('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/404'));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();

    signInAs(adminSession);
    router = renderAt('/productsX');
    // /productsX is not a route: 404 comes before any access decision.
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/404'));
  });

  it('sends a worker at /manage_org to /unauthorized', async () => {
    signInAs(workerSession);
    const router = renderAt('/manage_org');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
    expect(
      await screen.findByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeInTheDocument();
  });

  it('sends a clientA employee at /clientB/dashboard to /unauthorized', async () => {
    signInAs(clientAEmployee);
    const router = renderAt('/clientB/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
  });

  it('lets a clientA employee into /clientA/dashboard, the CIN selector', async () => {
    signInAs(clientAEmployee);
    mockApi({ 'GET /api/companies': () => json(200, { companies: [] }) });
    const router = renderAt('/clientA/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Client A dashboard' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/clientA/dashboard');
  });

  it('lets a clientA employee into /clientA/reports, the batch report uploader', async () => {
    signInAs(clientAEmployee);
    mockApi({ 'GET /api/batch-updates': () => json(200, { updates: [] }) });
    renderAt('/clientA/reports');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Batch reports' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('No batch updates yet.')).toBeInTheDocument();
  });

  it('explains /pharmagen/batchupdate to a brand admin, and sends the worker to /unauthorized', async () => {
    signInAs({
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/pharmagen/batchupdate'],
    });
    mockApi({});
    let router = renderAt('/pharmagen/batchUpdate');
    expect(
      await screen.findByRole('heading', {
        level: 2,
        name: 'Batch updates are for pharmaceutical clients',
      }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pharmagen/batchUpdate');
    expect(screen.getByRole('link', { name: 'Go to products' })).toHaveAttribute(
      'href',
      '/products',
    );
    cleanup();

    signInAs(workerSession);
    router = renderAt('/pharmagen/batchupdate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
  });

  it('sends a client admin at /pharmagen/batchupdate on to their own batch updates', async () => {
    for (const [clientId, area, target, heading] of [
      ['clientA', ['/clientA', '/gme'], '/gme/batchUpdate', 'Batch update'],
      ['clientB', ['/clientB', '/pmbi'], '/clientB/dashboard', 'Client B dashboard'],
    ] as const) {
      signInAs({
        user: { ...clientAEmployee.user, role: 'admin', clientId },
        csrfToken: 'csrf-c',
        allowedPaths: ['/', '/pharmagen/batchupdate', ...area, '/profile', '/settings'],
        assignableRoles: ['employee'],
        modules: clientModules,
        moduleCatalogue,
      });
      mockApi({ 'GET /api/batch-updates': () => json(200, { updates: [] }) });
      const router = renderAt('/pharmagen/batchupdate');
      await waitFor(() => expect(router.state.location.pathname).toBe(target));
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      cleanup();
    }
  });

  it("shows a client organisation's dashboard without calling the brands' scan operations", async () => {
    signInAs(clientAEmployee);
    const { calls } = mockApi({
      'GET /api/organisation/get-started': () => json(200, { steps: [], dismissed: false }),
    });
    renderAt('/');
    // The dashboard's route module is large (it holds the brands' analytics): load it unhurried.
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Go to' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const shortcuts = within(screen.getByRole('region', { name: 'Go to' }));
    expect(shortcuts.getByRole('link', { name: 'Client A dashboard' })).toBeInTheDocument();
    // Effects that would call have run by now; give their fetches a moment.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/organisation/get-started']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('requires signing in for /ProcessMapping, and opens it to organisation members', async () => {
    let router = renderAt('/ProcessMapping');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirectTo=%2FProcessMapping');
    cleanup();

    signInAs({
      ...workerSession,
      allowedPaths: [...workerSession.allowedPaths, '/ProcessMapping'],
    });
    mockApi({});
    router = renderAt('/ProcessMapping');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ProcessMapping');
    cleanup();

    signInAs(workerSession);
    router = renderAt('/processmapping');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
  });

  it('matches routes case-insensitively', async () => {
    signInAs(workerSession);
    mockProductList();
    renderAt('/PRODUCTS/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
  });

  it('lets a worker open a product and the add page, and sends the edit page to /unauthorized', async () => {
    signInAs(workerSession);
    mockApi({
      'GET /api/products/p-1': () =>
        json(404, { error: 'No such product in your organisation.', code: 'not_found' }),
    });
    let router = renderAt('/products/p-1');
    expect(await screen.findByText('No such product in your organisation.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/products/p-1');
    cleanup();

    router = renderAt('/products/add_product');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Add product' }),
    ).toBeInTheDocument();
    cleanup();

    router = renderAt('/products/Edit_product/p-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/unauthorized'));
  });

  it('shows only allowed pages in the sidebar', async () => {
    signInAs(workerSession);
    mockProductList();
    renderAt('/products');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(['Dashboard', 'Usage', 'Products', 'Profile']);
  });

  it('groups the pages that do not work yet apart from the working ones', async () => {
    signInAs({
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/print/lables', '/inventory', '/erp'],
      modules: brandModules.filter((m) => !['products', 'inventory'].includes(m)),
    });
    mockApi({ 'GET /api/me': () => json(200, adminSession.user) });
    renderAt('/profile');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(expect.arrayContaining(['Label designs', 'Print jobs']));
    // Switched off, or built by a later issue: never among the working pages.
    expect(labels).not.toContain('Products');
    expect(labels).not.toContain('Inventory');
    expect(labels).not.toContain('ERP');
    const apart = screen.getByRole('navigation', { name: 'Not available yet', hidden: true });
    const rows = Array.from(apart.querySelectorAll('a')).map((a) => a.textContent);
    expect(rows).toEqual(
      expect.arrayContaining([
        'ProductsNot in your plan',
        'InventoryNot in your plan',
        'ERPComing soon',
      ]),
    );
    cleanup();

    // No ERP module at all: the ERP overview is "not in your plan"; the plan's modules stay.
    signInAs({
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/erp', '/inventory'],
      modules: ['products', 'labels'],
    });
    renderAt('/profile');
    const again = await screen.findByRole('navigation', { name: 'Main' });
    const shown = Array.from(again.querySelectorAll('a')).map((a) => a.textContent);
    expect(shown).toEqual(expect.arrayContaining(['Products', 'Print jobs']));
    expect(shown).not.toContain('ERP');
    const rest = screen.getByRole('navigation', { name: 'Not available yet', hidden: true });
    expect(Array.from(rest.querySelectorAll('a')).map((a) => a.textContent)).toContain(
      'ERPNot in your plan',
    );
  });

  it('shows the icons page in the sidebar to platform admins only', async () => {
    signInAs({ ...adminSession, allowedPaths: [...adminSession.allowedPaths, '/icons/solar'] });
    mockApi({ 'GET /api/me': () => json(200, adminSession.user) });
    renderAt('/profile');
    let nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Icons' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    cleanup();

    signInAs({
      ...adminSession,
      user: { ...adminSession.user, role: 'platform_admin', clientId: undefined },
      allowedPaths: ['/', '/admin/dashboard', '/profile', '/icons/solar'],
      modules: [],
    });
    renderAt('/profile');
    nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Icons' })).toBeInTheDocument();
  });

  it('leads the correct spellings /print/labels and /calendar to the spec’s routes', async () => {
    signInAs({
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/print/lables', '/calender'],
    });
    mockApi({});
    let router = renderAt('/print/labels');
    await waitFor(() => expect(router.state.location.pathname).toBe('/print/lables'));
    cleanup();
    router = renderAt('/calendar');
    await waitFor(() => expect(router.state.location.pathname).toBe('/calender'));
    expect(await screen.findByTestId('not-available')).toBeInTheDocument();
    cleanup();

    // Signed out: the sign-in page remembers the spec's route.
    useAppStore.setState(initialData());
    router = renderAt('/calendar');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirectTo=%2Fcalender');
  });

  it('answers a page of a module the plan does not have with "not part of your plan"', async () => {
    signInAs({ ...adminSession, modules: brandModules.filter((m) => m !== 'products') });
    const { calls } = mockApi({});
    const router = renderAt('/products/p-1');
    expect(
      await screen.findByRole('heading', {
        level: 2,
        name: 'This module is not part of your plan',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
    expect(screen.getByTestId('not-in-plan')).toHaveTextContent(
      'ask your platform administrator to add it',
    );
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/',
    );
    expect(router.state.location.pathname).toBe('/products/p-1');
    // The page asks the server for nothing the server would refuse.
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/product'))).toHaveLength(0);
  });

  it('says an ERP module is not part of the plan instead of "not available yet"', async () => {
    const session = {
      ...adminSession,
      allowedPaths: [...adminSession.allowedPaths, '/Sales'],
    };
    signInAs({ ...session, modules: ['products'] });
    mockApi({});
    renderAt('/Sales');
    expect(
      await screen.findByRole('heading', { name: 'This module is not part of your plan' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('not-in-plan')).toHaveTextContent(
      'Sales and orders is not part of your organisation’s plan',
    );
    expect(screen.queryByTestId('not-available')).not.toBeInTheDocument();
    cleanup();

    signInAs(session);
    renderAt('/Sales');
    expect(await screen.findByTestId('not-available')).toHaveTextContent('Not available yet');
    expect(screen.queryByTestId('not-in-plan')).not.toBeInTheDocument();
  });

  it('shows a client organisation’s tools only with the client code tools', async () => {
    signInAs({ ...clientAEmployee, modules: ['products', 'codes'] });
    mockApi({});
    renderAt('/clientA/dashboard');
    expect(
      await screen.findByRole('heading', { name: 'This module is not part of your plan' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('not-in-plan')).toHaveTextContent('Client code tools');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).not.toContain('Client A dashboard');
    expect(labels).not.toContain('Code selector');
  });

  it('sends the user to login when another tab signed out', async () => {
    signInAs(workerSession);
    mockProductList();
    const router = renderAt('/products');
    await screen.findByRole('heading', { level: 1, name: 'Products' });
    window.localStorage.removeItem('root');
    await act(() => router.navigate('/profile'));
    // The guard reacts on the next navigation; give a loaded machine time.
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'), {
      timeout: 15_000,
    });
    expect(useAppStore.getState().auth.user).toBeNull();
  });

  it('signs in and goes back to the page that was asked for', async () => {
    const { calls } = mockApi({
      'POST /api/auth/login': () =>
        json(200, { user: adminSession.user, csrfToken: adminSession.csrfToken }),
      'GET /api/auth/session': () => json(200, adminSession),
      'GET /api/me/preferences': () => json(200, { theme: 'dark', landingPage: '/ui/table' }),
      'GET /api/account-info': () => json(200, []),
    });
    const router = renderAt('/auth/login?redirectTo=%2Fmanage_org');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'admin@acme.test');
    await user.type(screen.getByLabelText('Password'), 'brandops-demo');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage_org'));
    expect(calls[0]!.body).toEqual({ email: 'admin@acme.test', password: 'brandops-demo' });
    expect(useAppStore.getState().auth.preferences?.theme).toBe('dark');
    // Nothing but the auth state is stored, and no password.
    expect(window.localStorage.getItem('root')).not.toContain('brandops-demo');
  });

  it('lands on the preferred landing page after signing in', async () => {
    mockApi({
      'POST /api/auth/login': () =>
        json(200, { user: adminSession.user, csrfToken: adminSession.csrfToken }),
      'GET /api/auth/session': () => json(200, adminSession),
      'GET /api/me/preferences': () => json(200, { theme: 'light', landingPage: '/ui/table' }),
      'GET /api/organisation': () => json(500, { error: 'x', code: 'internal' }),
    });
    const router = renderAt('/auth/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'admin@acme.test');
    await user.type(screen.getByLabelText('Password'), 'brandops-demo');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ui/table'));
  });

  it('shows the server message on a failed sign-in and clears the password', async () => {
    mockApi({
      'POST /api/auth/login': () =>
        json(401, { error: 'Invalid email or password.', code: 'invalid_credentials' }),
    });
    renderAt('/auth/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'admin@acme.test');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(useAppStore.getState().auth.csrfToken).toBeNull();
  });

  it('shows the error screen when a page crashes', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('boom');
    };
    const router = createMemoryRouter(
      [{ errorElement: routes[0]!.errorElement, children: [{ path: '/', element: <Boom /> }] }],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Sorry.. there was an error')).toBeInTheDocument();
    spy.mockRestore();
  });
});
