import { BatchUploadPage } from '@/features/batch-updates/components/batch-upload-page';

export function Component() {
  return (
    <BatchUploadPage
      title="Client B dashboard"
      description="Update the batch data of your codes from a CSV or XLSX file: check it first, then apply it, all rows or none. Your uploads are listed below."
    />
  );
}
