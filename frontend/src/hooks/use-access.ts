import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { clientAreas, type ClientAreaKey } from '@/config/paths';
import { planCovers, type ModuleRequirement } from '@/lib/access/modules';
import { decideRedirect } from '@/lib/access/redirect-decision';
import { useAppStore } from '@/stores/app-store';

/** What the redirect decision needs from the store, re-rendering only when it changes. */
export function useAccessState() {
  return useAppStore(
    useShallow((s) => ({
      user: s.auth.user,
      csrfToken: s.auth.csrfToken,
      allowedPaths: s.auth.allowedPaths,
      sessionChecked: s.auth.sessionChecked,
      landingPath: s.auth.preferences?.landingPage ?? null,
    })),
  );
}

/**
 * `canOpen(path, area?)`: would the guard let the signed-in user open `path`?
 * The sidebar and the dashboard's shortcuts use it, so links never lead to
 * an "unauthorized" page.
 */
export function useCanOpen() {
  const { user, csrfToken, allowedPaths } = useAccessState();
  return useCallback(
    (path: string, area?: ClientAreaKey) =>
      decideRedirect({
        pathname: path,
        storedCsrfToken: csrfToken,
        user,
        allowedPaths,
        clientArea: area ? clientAreas[area] : null,
      }).kind === 'allow',
    [user, csrfToken, allowedPaths],
  );
}

/**
 * `hasModule(required?)`: does the signed-in user's organisation have the
 * module (any one of them)? Nothing required: yes. The sidebar, the
 * dashboard's shortcuts and the module gate of the routes use it.
 */
export function useHasModule() {
  const { user, modules } = useAppStore(
    useShallow((s) => ({ user: s.auth.user, modules: s.auth.modules })),
  );
  return useCallback(
    (required?: ModuleRequirement) => planCovers(required, { user, modules }),
    [user, modules],
  );
}
