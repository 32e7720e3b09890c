import { LogisticsPage } from '@/features/logistics/components/logistics-page';
import { RecallsSection } from '@/features/recalls/components/recalls-section';
import { useAppStore } from '@/stores/app-store';

/** `/Logistics`: shipments and customers, then the recall screen. */
export function Component() {
  const role = useAppStore((s) => s.auth.user?.role);
  return (
    <LogisticsPage
      role={role}
      sections={[{ id: 'recalls', title: 'Recalls', content: <RecallsSection /> }]}
    />
  );
}
