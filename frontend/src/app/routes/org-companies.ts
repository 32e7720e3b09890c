import { useCallback } from 'react';
import { paths } from '@/config/paths';
import { fetchCompanies, type Company } from '@/features/companies/api/companies-api';
import { useApiResult } from '@/hooks/use-api-result';
import { useCanOpen } from '@/hooks/use-access';

/**
 * The companies of the signed-in user's organisation, for pages of other
 * features (the product form's company select): loaded only when the user
 * may open client A's CIN selector, the page the policy gives to whoever may
 * list companies, so no one else sends a request the server would refuse.
 * Empty while loading, when the organisation has none, or when they could
 * not be loaded (the form then works without the select).
 */
export function useOrgCompanies(): readonly Company[] {
  const canOpen = useCanOpen();
  const hasCompanies = canOpen(paths.clientA.dashboard.href(), 'clientA');
  const load = useCallback(
    () =>
      hasCompanies
        ? fetchCompanies()
        : Promise.resolve({ ok: true as const, data: { companies: [] as Company[] } }),
    [hasCompanies],
  );
  const { result } = useApiResult(load);
  return result?.ok ? result.data.companies : [];
}
