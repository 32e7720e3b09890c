import { useState } from 'react';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { BatchUpdateHistory } from './batch-update-history';
import { ManualBatchForm } from './manual-batch-form';

/** `/pmbi/batchUpdate`: the manual batch entry, and the organisation's history. */
export function ManualBatchPage() {
  const [version, setVersion] = useState(0);
  return (
    <>
      <PageHeader
        title="Batch update (manual entry)"
        description="Give codes their Schedule H2 batch data by hand: a range of a code job, a list of serials, or both. Check first; applying changes all the codes or none."
      />
      <CardSection title="Batch data for codes">
        <ManualBatchForm onChange={() => setVersion((v) => v + 1)} />
      </CardSection>
      <CardSection title="Update history">
        <BatchUpdateHistory version={version} />
      </CardSection>
    </>
  );
}
