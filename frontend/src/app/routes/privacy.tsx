import { PrivacyPage } from '@/features/legal/components/privacy-page';

export function Component() {
  return <PrivacyPage />;
}
