import { BatchUploadPage } from '@/features/batch-updates/components/batch-upload-page';

export function Component() {
  return (
    <BatchUploadPage
      title="Batch update"
      description="Assign batch data (batch number, dates, licence number) to your codes from a CSV or XLSX file: check it first, then apply it, all rows or none."
    />
  );
}
