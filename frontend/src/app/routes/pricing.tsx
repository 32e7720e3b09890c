import { PricingPage } from '@/features/pricing/components/pricing-page';
import { useAppStore } from '@/stores/app-store';

export function Component() {
  const role = useAppStore((s) => s.auth.user?.role);
  return <PricingPage role={role} />;
}
