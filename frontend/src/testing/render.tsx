import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import type { SessionInfo } from '@/lib/api/types';
import { initialData, useAppStore } from '@/stores/app-store';

export const adminSession: SessionInfo = {
  user: {
    id: 'u-admin',
    name: 'Ada Admin',
    email: 'admin@acme.test',
    role: 'admin',
    clientId: 'acme',
  },
  csrfToken: 'csrf-test-token',
  allowedPaths: ['/', '/ui/table', '/products', '/printer', '/profile', '/settings', '/manage_org'],
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
