import { UsagePage } from '@/features/organisation/components/usage-page';

export function Component() {
  return <UsagePage />;
}
