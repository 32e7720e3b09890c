import { useState } from 'react';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { BatchFileUploader } from './batch-file-uploader';
import { BatchUpdateHistory } from './batch-update-history';
import { ColumnsGuide } from './columns-guide';

/**
 * A batch-update page of a pharmaceutical client (`/clientA/reports`,
 * `/gme/batchUpdate`, `/clientB/dashboard`): the file uploader, the columns a
 * file takes, and the organisation's upload history.
 */
export function BatchUploadPage({
  title,
  description,
  uploadTitle = 'Upload a batch file',
}: {
  title: string;
  description: string;
  uploadTitle?: string;
}) {
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageHeader title={title} description={description} />
      <CardSection title={uploadTitle}>
        <BatchFileUploader onChange={() => setVersion((v) => v + 1)} />
      </CardSection>
      <CardSection title="File columns and templates">
        <ColumnsGuide />
      </CardSection>
      <CardSection title="Upload history">
        <BatchUpdateHistory version={version} />
      </CardSection>
    </>
  );
}
