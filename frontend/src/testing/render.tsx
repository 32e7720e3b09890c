import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import type { SessionInfo } from '@/lib/api/types';
import { initialData, useAppStore } from '@/stores/app-store';

/** The server's module catalogue (`http/modules.rs`), without operations. */
export const moduleCatalogue: SessionInfo['moduleCatalogue'] = (
  [
    ['products', 'Products'],
    ['codes', 'Serialized codes'],
    ['labels', 'Label printing'],
    ['scans', 'Scan analytics'],
    ['dpp', 'Digital product passport'],
    ['journey', 'Product journey'],
    ['inventory', 'Inventory'],
    ['procurement', 'Procurement'],
    ['manufacturing', 'Manufacturing'],
    ['qa', 'QA and compliance'],
    ['logistics', 'Logistics'],
    ['sales', 'Sales and orders'],
    ['pricing', 'Pricing'],
    ['invoices', 'Invoices'],
    ['finance', 'Financial metrics'],
    ['tasks', 'Task board'],
    ['calendar', 'Calendar'],
    ['client_tools', 'Client code tools'],
  ] as const
).map(([key, name]) => ({ key, name, operations: [] }));

/** A new brand's modules: every one but the client code tools (`default_modules`). */
export const brandModules: SessionInfo['modules'] = moduleCatalogue
  .map((m) => m.key)
  .filter((key) => key !== 'client_tools');

/** A new client organisation's modules (`default_modules`). */
export const clientModules: SessionInfo['modules'] = [
  'products',
  'codes',
  'labels',
  'scans',
  'client_tools',
];

export const adminSession: SessionInfo = {
  user: {
    id: 'u-admin',
    name: 'Ada Admin',
    email: 'admin@acme.test',
    role: 'admin',
    clientId: 'acme',
    organisationKind: 'brand',
    organisationName: 'Acme Brands',
  },
  csrfToken: 'csrf-test-token',
  allowedPaths: ['/', '/ui/table', '/products', '/printer', '/profile', '/settings', '/manage_org'],
  assignableRoles: ['worker', 'manager'],
  modules: brandModules,
  moduleCatalogue,
};

/** A client organisation's admin (client A), who adds employees. */
export const clientAdminSession: SessionInfo = {
  user: {
    id: 'u-client-admin',
    name: 'Cleo Client',
    email: 'admin@clienta.test',
    role: 'admin',
    clientId: 'clientA',
    organisationKind: 'client',
  },
  csrfToken: 'csrf-client-token',
  allowedPaths: ['/', '/products', '/printer', '/profile', '/settings', '/manage_org', '/clientA'],
  assignableRoles: ['employee'],
  modules: clientModules,
  moduleCatalogue,
};

/** Signs the store in as `session` (as after a real sign-in). */
export function signInAs(session: SessionInfo = adminSession) {
  useAppStore.setState(initialData());
  useAppStore.getState().sessionLoaded(session);
}

/** Renders `ui` inside a router, with the app's toast container. */
export function renderPage(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const user = userEvent.setup({ delay: null });
  const result = render(
    <MemoryRouter initialEntries={[route]}>
      {ui}
      <Toaster />
    </MemoryRouter>,
  );
  return { user, ...result };
}
