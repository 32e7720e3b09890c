import { useState } from 'react';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { BatchFileUploader } from '@/features/batch-updates/components/batch-file-uploader';
import { BatchUpdateHistory } from '@/features/batch-updates/components/batch-update-history';
import { ColumnsGuide } from '@/features/batch-updates/components/columns-guide';
import { ClientOverviewView } from '@/features/companies/components/client-overview';

/** Batch updates the dashboard lists (the newest). */
const LATEST_UPDATES = 5;

/**
 * `/clientB/dashboard`: client B's codes generated, printed and scanned, its
 * batches, its latest batch updates, and the file uploader (the spec's
 * "shows the file uploader"), all of the signed-in organisation only.
 */
export function Component() {
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageHeader
        title="Client B dashboard"
        description="Your codes, your batches and your latest batch updates; upload a CSV or XLSX file to give your codes their batch data."
      />
      <ClientOverviewView key={version} />
      <CardSection title="Latest batch updates">
        <BatchUpdateHistory version={version} limit={LATEST_UPDATES} />
      </CardSection>
      <CardSection title="Upload a batch file">
        <BatchFileUploader onChange={() => setVersion((v) => v + 1)} />
      </CardSection>
      <CardSection title="File columns and templates">
        <ColumnsGuide />
      </CardSection>
    </>
  );
}
