import { QualityPage } from '@/features/quality/components/quality-page';

export function Component() {
  return <QualityPage />;
}
