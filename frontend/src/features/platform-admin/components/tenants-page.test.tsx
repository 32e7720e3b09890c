import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { NETWORK_ERROR_MESSAGE } from '@/lib/api/call-api';
import type { SessionInfo } from '@/lib/api/types';
import { json, mockApi, networkDown, type RecordedCall } from '@/testing/mock-api';
import { moduleCatalogue, renderPage, signInAs } from '@/testing/render';
import type { Tenant } from '../api/tenants-api';
import { TenantsPage } from './tenants-page';

const platformSession: SessionInfo = {
  user: {
    id: 'u-pat',
    name: 'Pat Platform',
    email: 'platform@brandops.test',
    role: 'platform_admin',
  },
  csrfToken: 'csrf-test-token',
  allowedPaths: ['/', '/admin/dashboard', '/profile'],
  assignableRoles: [],
  modules: [],
  moduleCatalogue,
};

const acme: Tenant = {
  id: 't-1',
  clientId: 'acme',
  name: 'Acme Consumer Goods',
  kind: 'brand',
  schema: 'brand_acme',
  userLimit: 10,
  productLimit: 200,
  codeQuota: 5_000_000,
  userCount: 4,
  status: 'active',
  modules: ['products'],
  createdAt: '2026-01-05T10:00:00Z',
};
const globex: Tenant = {
  ...acme,
  id: 't-2',
  clientId: 'globex',
  name: 'Globex Pharma Brands',
  schema: 'brand_globex',
  userLimit: 3,
  productLimit: 50,
  codeQuota: 1_000_000,
  userCount: 1,
};

type Handlers = Parameters<typeof mockApi>[0];

function setup(handlers: Handlers = {}) {
  signInAs(platformSession);
  const api = mockApi({
    'GET /api/platform/tenants': () => json(200, [acme, globex]),
    'GET /api/admin/scans': () => json(200, []),
    ...handlers,
  });
  const view = renderPage(<TenantsPage />, { route: '/admin/dashboard' });
  return { ...api, ...view };
}

const changes = (calls: RecordedCall[]) => calls.filter((c) => c.method !== 'GET');

async function rowOf(name: string) {
  return (await screen.findAllByRole('row')).find((r) => within(r).queryByText(name))!;
}

async function openEditLimits(user: ReturnType<typeof setup>['user'], name = acme.name) {
  await user.click(await screen.findByRole('button', { name: `Edit limits for ${name}` }));
  return screen.getByRole('dialog', { name: 'Edit limits' });
}

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Tenants page: limits', () => {
  it('shows users against the user limit, the product limit and the code quota, with separators', async () => {
    setup();
    const headers = (await screen.findAllByRole('columnheader')).map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Users', 'Product limit', 'Code quota']));
    const row = within(await rowOf('Acme Consumer Goods'));
    expect(row.getByText('acme')).toBeInTheDocument();
    expect(row.getByText(/· Brand/)).toHaveTextContent('Tenant id acme · Brand');
    expect(row.getByText('4 / 10')).toBeInTheDocument();
    expect(row.getByText('200')).toBeInTheDocument();
    expect(row.getByText('5,000,000')).toBeInTheDocument();
    expect(
      row.getByRole('button', { name: 'Edit limits for Acme Consumer Goods' }),
    ).toHaveTextContent('Edit limits');
  });

  it('opens Edit limits pre-filled, with the ranges and the note on lowering', async () => {
    const { user } = setup();
    const dialog = await openEditLimits(user);
    const d = within(dialog);
    expect(dialog).toHaveTextContent('Acme Consumer Goods');
    expect(d.getByLabelText('User limit')).toHaveValue(10);
    expect(d.getByLabelText('Product limit')).toHaveValue(200);
    expect(d.getByLabelText('Code quota')).toHaveValue(5_000_000);
    expect(d.getByLabelText('User limit')).toHaveAccessibleDescription(
      '1 to 100,000; 4 in use now.',
    );
    expect(d.getByLabelText('Product limit')).toHaveAccessibleDescription('0 to 1,000,000.');
    expect(dialog).toHaveTextContent(
      'Lowering a limit below current use blocks new additions; nothing is deleted.',
    );
    expect(d.getByLabelText('User limit')).toHaveFocus();
  });

  it('saves the changed limit, says so and updates the row in place', async () => {
    let answer!: (response: Response) => void;
    const { user, calls } = setup({
      'PATCH /api/platform/tenants/acme': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const dialog = await openEditLimits(user);
    const d = within(dialog);
    await user.clear(d.getByLabelText('Product limit'));
    await user.type(d.getByLabelText('Product limit'), '1500');
    await user.click(d.getByRole('button', { name: 'Save limits' }));

    // Disabled while sending.
    await waitFor(() => expect(d.getByRole('button', { name: 'Save limits' })).toBeDisabled());
    const [patch] = changes(calls);
    expect(patch!.method).toBe('PATCH');
    expect(patch!.body).toEqual({ productLimit: 1500 });
    expect(patch!.headers.get('x-csrf-token')).toBe('csrf-test-token');

    answer(json(200, { ...acme, productLimit: 1500 }));
    expect(await screen.findByText('Limits updated for Acme Consumer Goods')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(await rowOf('Acme Consumer Goods')).getByText('1,500')).toBeInTheDocument();
    // No reload: the list was fetched once.
    expect(calls.filter((c) => c.url.pathname === '/api/platform/tenants')).toHaveLength(1);
  });

  it('sends every limit that changed, and nothing when none did', async () => {
    const { user, calls } = setup({
      'PATCH /api/platform/tenants/globex': () =>
        json(200, { ...globex, userLimit: 1, codeQuota: 0 }),
    });
    let dialog = await openEditLimits(user, globex.name);
    await user.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(changes(calls)).toHaveLength(0);

    dialog = await openEditLimits(user, globex.name);
    const d = within(dialog);
    await user.clear(d.getByLabelText('User limit'));
    await user.type(d.getByLabelText('User limit'), '1');
    await user.clear(d.getByLabelText('Code quota'));
    await user.type(d.getByLabelText('Code quota'), '0');
    await user.click(d.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Limits updated for Globex Pharma Brands')).toBeInTheDocument();
    expect(changes(calls)[0]!.body).toEqual({ userLimit: 1, codeQuota: 0 });
    expect(within(await rowOf('Globex Pharma Brands')).getByText('1 / 1')).toBeInTheDocument();
  });

  it('explains each out-of-range value next to its field and sends nothing', async () => {
    const { user, calls } = setup();
    const dialog = await openEditLimits(user);
    const d = within(dialog);
    await user.clear(d.getByLabelText('User limit'));
    await user.type(d.getByLabelText('User limit'), '0');
    await user.clear(d.getByLabelText('Product limit'));
    await user.type(d.getByLabelText('Product limit'), '2000000');
    await user.clear(d.getByLabelText('Code quota'));
    await user.click(d.getByRole('button', { name: 'Save limits' }));

    expect(d.getByLabelText('User limit')).toHaveAccessibleDescription(
      expect.stringContaining('Enter a whole number from 1 to 100,000.'),
    );
    expect(d.getByLabelText('User limit')).toBeInvalid();
    expect(d.getByLabelText('Product limit')).toHaveAccessibleDescription(
      expect.stringContaining('Enter a whole number from 0 to 1,000,000.'),
    );
    expect(d.getByLabelText('Code quota')).toHaveAccessibleDescription(
      expect.stringContaining('Enter a whole number from 0 to 10,000,000,000.'),
    );
    expect(changes(calls)).toHaveLength(0);

    // Fixing a field clears its message.
    await user.type(d.getByLabelText('Code quota'), '5');
    expect(d.queryByText('Enter a whole number from 0 to 10,000,000,000.')).not.toBeInTheDocument();
  });

  it.each([
    [
      'a refusal',
      () =>
        json(400, { error: 'productLimit must be between 0 and 1000000.', code: 'invalid_input' }),
      'productLimit must be between 0 and 1000000.',
    ],
    [
      'an unknown tenant',
      () => json(404, { error: "No tenant with clientId 'acme'.", code: 'not_found' }),
      "No tenant with clientId 'acme'.",
    ],
    [
      'a network failure',
      () => networkDown(),
      'A network error occurred. Please check your connection.',
    ],
  ])('on %s shows the reason in the modal and keeps the row', async (_, respond, message) => {
    const { user } = setup({ 'PATCH /api/platform/tenants/acme': respond });
    const dialog = await openEditLimits(user);
    const d = within(dialog);
    await user.clear(d.getByLabelText('Product limit'));
    await user.type(d.getByLabelText('Product limit'), '300');
    await user.click(d.getByRole('button', { name: 'Save limits' }));
    expect(await d.findByRole('alert')).toHaveTextContent(message);
    expect(d.getByRole('button', { name: 'Save limits' })).toBeEnabled();
    expect(screen.getByRole('dialog', { name: 'Edit limits' })).toBeInTheDocument();
    expect(within(await rowOf('Acme Consumer Goods')).getByText('200')).toBeInTheDocument();
  });

  it('opens afresh for each tenant; Cancel sends nothing', async () => {
    const { user, calls } = setup();
    let dialog = await openEditLimits(user);
    await user.clear(within(dialog).getByLabelText('Product limit'));
    await user.type(within(dialog).getByLabelText('Product limit'), '9');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Edit limits for Acme Consumer Goods' }),
    ).toHaveFocus();

    dialog = await openEditLimits(user, globex.name);
    expect(within(dialog).getByLabelText('Product limit')).toHaveValue(50);
    await user.keyboard('{Escape}');
    dialog = await openEditLimits(user);
    expect(within(dialog).getByLabelText('Product limit')).toHaveValue(200);
    expect(changes(calls)).toHaveLength(0);
  });
});

describe('Onboard a tenant: limits', () => {
  async function fillOnboarding(user: ReturnType<typeof setup>['user']) {
    await user.click(await screen.findByRole('button', { name: 'Onboard a tenant' }));
    const dialog = screen.getByRole('dialog', { name: 'Onboard a tenant' });
    const d = within(dialog);
    await user.type(d.getByLabelText('Tenant id'), 'initech');
    await user.type(d.getByLabelText('Organisation name'), 'Initech');
    await user.type(d.getByLabelText('Admin name'), 'Ian Admin');
    await user.type(d.getByLabelText('Admin email'), 'admin@initech.test');
    await user.type(d.getByLabelText('Admin password'), 'initech-admin-1');
    return d;
  }

  const created: Tenant = {
    ...acme,
    id: 't-3',
    clientId: 'initech',
    name: 'Initech',
    schema: 'brand_initech',
    productLimit: 100,
    codeQuota: 1_000_000,
    userCount: 1,
  };

  it('has optional Product limit and Code quota fields whose hints name the defaults', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Onboard a tenant' }));
    const d = within(screen.getByRole('dialog', { name: 'Onboard a tenant' }));
    expect(d.getByLabelText('Product limit')).toHaveValue(null);
    expect(d.getByLabelText('Product limit')).toHaveAccessibleDescription(
      'Optional: 0 to 1,000,000; leave empty for the default, 100.',
    );
    expect(d.getByLabelText('Code quota')).toHaveValue(null);
    expect(d.getByLabelText('Code quota')).toHaveAccessibleDescription(
      'Optional: 0 to 10,000,000,000; leave empty for the default, 1,000,000.',
    );
  });

  it('leaves empty limits out, so the server uses its defaults', async () => {
    const { user, calls } = setup({ 'POST /api/platform/tenants': () => json(201, created) });
    const d = await fillOnboarding(user);
    await user.click(d.getByRole('button', { name: 'Create tenant' }));
    expect(await screen.findByText('1 / 10')).toBeInTheDocument();
    const body = changes(calls)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ clientId: 'initech', userLimit: 10 });
    expect(body).not.toHaveProperty('productLimit');
    expect(body).not.toHaveProperty('codeQuota');
  });

  it('sends the limits given, and refuses out-of-range ones', async () => {
    const { user, calls } = setup({
      'POST /api/platform/tenants': () =>
        json(201, { ...created, productLimit: 0, codeQuota: 10_000_000_000 }),
    });
    const d = await fillOnboarding(user);
    await user.type(d.getByLabelText('Product limit'), '-1');
    await user.type(d.getByLabelText('Code quota'), '10000000001');
    await user.click(d.getByRole('button', { name: 'Create tenant' }));
    expect(d.getByText('Enter a whole number from 0 to 1,000,000.')).toBeInTheDocument();
    expect(d.getByText('Enter a whole number from 0 to 10,000,000,000.')).toBeInTheDocument();
    expect(changes(calls)).toHaveLength(0);

    await user.clear(d.getByLabelText('Product limit'));
    await user.type(d.getByLabelText('Product limit'), '0');
    await user.clear(d.getByLabelText('Code quota'));
    await user.type(d.getByLabelText('Code quota'), '10000000000');
    await user.click(d.getByRole('button', { name: 'Create tenant' }));
    expect(await screen.findByText('10,000,000,000')).toBeInTheDocument();
    expect(changes(calls)[0]!.body).toMatchObject({ productLimit: 0, codeQuota: 10_000_000_000 });
  });
});

describe('Tenants page: modules', () => {
  async function openModules(user: ReturnType<typeof setup>['user'], name = acme.name) {
    await user.click(await screen.findByRole('button', { name: `Modules of ${name}` }));
    return screen.getByRole('dialog', { name: 'Modules' });
  }

  it('ticks the tenant’s modules among every module of the catalogue', async () => {
    const { user } = setup();
    const d = within(await openModules(user));
    const boxes = d.getAllByRole('checkbox');
    expect(boxes).toHaveLength(18);
    expect(d.getByRole('checkbox', { name: 'Products' })).toBeChecked();
    expect(d.getByRole('checkbox', { name: 'Label printing' })).not.toBeChecked();
    expect(d.getByRole('checkbox', { name: 'Inventory' })).not.toBeChecked();
  });

  it('saves the whole list, says so and updates the row in place', async () => {
    const { user, calls } = setup({
      'PATCH /api/platform/tenants/acme': () =>
        json(200, { ...acme, modules: ['labels', 'inventory'] }),
    });
    let d = within(await openModules(user));
    await user.click(d.getByRole('checkbox', { name: 'Products' }));
    await user.click(d.getByRole('checkbox', { name: 'Inventory' }));
    await user.click(d.getByRole('checkbox', { name: 'Label printing' }));
    await user.click(d.getByRole('button', { name: 'Save modules' }));

    expect(await screen.findByText('Modules saved for Acme Consumer Goods')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const [patch] = changes(calls);
    expect(patch!.method).toBe('PATCH');
    // In the catalogue's order, whatever the order of the clicks.
    expect(patch!.body).toEqual({ modules: ['labels', 'inventory'] });
    expect(patch!.headers.get('x-csrf-token')).toBe('csrf-test-token');
    // Opened again, it shows what the server answered.
    d = within(await openModules(user));
    expect(d.getByRole('checkbox', { name: 'Products' })).not.toBeChecked();
    expect(d.getByRole('checkbox', { name: 'Inventory' })).toBeChecked();
  });

  it('shows the server’s refusal in the dialog and keeps the choice', async () => {
    const { user } = setup({
      'PATCH /api/platform/tenants/acme': () =>
        json(400, { error: "Unknown module 'teleport'.", code: 'invalid_input' }),
    });
    const d = within(await openModules(user));
    await user.click(d.getByRole('checkbox', { name: 'Calendar' }));
    await user.click(d.getByRole('button', { name: 'Save modules' }));
    expect(await d.findByRole('alert')).toHaveTextContent("Unknown module 'teleport'.");
    expect(screen.getByRole('dialog', { name: 'Modules' })).toBeInTheDocument();
    expect(d.getByRole('checkbox', { name: 'Calendar' })).toBeChecked();
    expect(screen.queryByText(/Modules saved/)).not.toBeInTheDocument();
  });

  it('says so when the server cannot be reached', async () => {
    const { user } = setup({ 'PATCH /api/platform/tenants/acme': networkDown });
    const d = within(await openModules(user));
    await user.click(d.getByRole('button', { name: 'Save modules' }));
    expect(await d.findByRole('alert')).toHaveTextContent(NETWORK_ERROR_MESSAGE);
  });
});
