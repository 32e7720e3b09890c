import { ProcurementPage } from '@/features/procurement/components/procurement-page';

export function Component() {
  return <ProcurementPage />;
}
