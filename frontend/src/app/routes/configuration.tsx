import { ConfigurationPage } from '@/features/organisation/components/configuration-page';

export function Component() {
  return <ConfigurationPage />;
}
