import { BulkDownloadPage } from '@/features/codes/components/bulk-download-page';

/** `/pmbi/codeDownload`: the codes feature's bulk download (its batches name their products). */
export function Component() {
  return <BulkDownloadPage />;
}
