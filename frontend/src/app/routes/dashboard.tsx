import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { listTenants } from '@/features/platform-admin/api/tenants-api';
import { loadProducts } from '@/features/products/api/products-api';
import { hasScanAnalytics } from '@/features/scans/access';
import { CompanyScans, type LoadCompanies } from '@/features/scans/components/company-scans';
import { ScanAnalytics, ScansForBrandsOnly } from '@/features/scans/components/scan-analytics';
import { useHasModule } from '@/hooks/use-access';
import { useAppStore } from '@/stores/app-store';

/** The brands a platform admin may look at (clients have no codes to scan). */
const loadBrands: LoadCompanies = async () => {
  const result = await listTenants();
  if (!result.ok) return result;
  return {
    ok: true,
    data: result.data
      .filter((tenant) => tenant.kind === 'brand')
      .map((tenant) => ({ id: tenant.clientId, name: tenant.name })),
  };
};

/**
 * `/`: a brand's scan analytics for its staff (the product list names the
 * most scanned codes); a platform admin, who belongs to no brand, chooses the
 * brand whose scans to see; a client organisation's staff, whom the policy
 * gives no scan operations, get the shortcuts alone (no call is refused).
 */
export function Component() {
  const user = useAppStore((s) => s.auth.user);
  const hasModule = useHasModule();
  let analytics = null;
  if (user?.role === 'platform_admin') analytics = <CompanyScans loadCompanies={loadBrands} />;
  // Scan analytics are a brand's plan module: without it the dashboard has only its shortcuts.
  else if (hasScanAnalytics(user) && hasModule('scans'))
    analytics = <ScanAnalytics loadProductNames={loadProducts} />;
  else if (user?.organisationKind === 'client') analytics = <ScansForBrandsOnly />;
  return <DashboardPage analytics={analytics} />;
}
