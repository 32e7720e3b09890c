import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { Splash } from '@/components/layout/splash';
import { clientAreas, type ClientAreaKey } from '@/config/paths';
import { useAccessState } from '@/hooks/use-access';
import { decideRedirect } from '@/lib/access/redirect-decision';
import { readStoredCsrfToken, useAppStore } from '@/stores/app-store';

/**
 * The route guard. It gathers the facts and follows `decideRedirect`; it has
 * no rules of its own. Used for the main layout, the client areas and the
 * `/auth/...` pages.
 */
export function AccessGuard({ clientArea }: { clientArea?: ClientAreaKey }) {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const { user, csrfToken, allowedPaths, sessionChecked, landingPath } = useAccessState();
  // Local storage, not memory: another tab may have signed out.
  const storedCsrfToken = readStoredCsrfToken();

  const decision = decideRedirect({
    pathname: location.pathname,
    search: location.search,
    storedCsrfToken,
    user,
    allowedPaths,
    clientArea: clientArea ? clientAreas[clientArea] : null,
    redirectTo: searchParams.get('redirectTo'),
    landingPath,
  });

  const mustReset = decision.resetAuth && (user !== null || csrfToken !== null);
  useEffect(() => {
    if (mustReset) useAppStore.getState().resetAll();
  }, [mustReset]);

  // Signed in but the server has not confirmed the session yet: wait for it.
  if (storedCsrfToken && !sessionChecked) return <Splash />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
}
