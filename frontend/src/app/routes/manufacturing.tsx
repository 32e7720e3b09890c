import { ManufacturingPage } from '@/features/manufacturing/components/manufacturing-page';

export function Component() {
  return <ManufacturingPage />;
}
