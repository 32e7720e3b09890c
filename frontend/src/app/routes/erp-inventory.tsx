import { ValuationPage } from '@/features/inventory/components/valuation-page';

export function Component() {
  return <ValuationPage />;
}
