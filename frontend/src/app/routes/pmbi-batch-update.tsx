import { ManualBatchPage } from '@/features/batch-updates/components/manual-batch-page';

export function Component() {
  return <ManualBatchPage />;
}
