import { InventoryPage } from '@/features/inventory/components/inventory-page';
import { useAppStore } from '@/stores/app-store';

export function Component() {
  const role = useAppStore((s) => s.auth.user?.role);
  return <InventoryPage role={role} />;
}
