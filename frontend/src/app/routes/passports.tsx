import { PassportsPage } from '@/features/passports/components/passports-page';

export function Component() {
  return <PassportsPage />;
}
