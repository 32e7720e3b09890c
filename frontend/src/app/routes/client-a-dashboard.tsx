import { ClientADashboardPage } from '@/features/companies/components/client-a-dashboard-page';

export function Component() {
  return <ClientADashboardPage />;
}
