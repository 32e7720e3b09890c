import { BulkDownloadPage } from '@/features/codes/components/bulk-download-page';

export function Component() {
  return <BulkDownloadPage />;
}
