import { TenantsPage } from '@/features/platform-admin/components/tenants-page';

export function Component() {
  return <TenantsPage />;
}
