import { BatchUploadPage } from '@/features/batch-updates/components/batch-upload-page';

export function Component() {
  return (
    <BatchUploadPage
      title="Batch reports"
      description="Upload batch reports (CSV or XLSX) that give your codes their Schedule H2 batch data: check a file first, then apply it. Every upload is kept in the history with its result."
      uploadTitle="Upload a batch report"
    />
  );
}
