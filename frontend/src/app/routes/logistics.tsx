import { LogisticsPage } from '@/features/logistics/components/logistics-page';
import { useAppStore } from '@/stores/app-store';

export function Component() {
  const role = useAppStore((s) => s.auth.user?.role);
  return <LogisticsPage role={role} />;
}
