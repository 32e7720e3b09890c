import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDateTime } from '@/lib/format';
import { getBatchUpdate, type BatchUpdate } from '../api/batch-updates-api';
import { sourceLabel } from '../batch-updates';
import { BatchFileUploader } from './batch-file-uploader';
import { BatchOutcome } from './batch-outcome';
import { BatchUpdateHistory } from './batch-update-history';

/** One finished update's outcome: its problems, or the batches it assigned, and its file. */
function BatchUpdateDetails({ id }: { id: string }) {
  const { result, reload } = useApiResult(() => getBatchUpdate(id));
  return (
    <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the result">
      {(update) => <BatchOutcome update={update} />}
    </ApiResultView>
  );
}

/**
 * The reports of batch uploads: every upload and form of the organisation,
 * newest first, with who, when, rows and outcome, each one's result file to
 * download, and, on "Details", its outcome (its problems row by row, or the
 * batches it assigned). Under them the file uploader the spec puts on this
 * page; a file checked or applied there joins the list at once.
 */
export function BatchReports() {
  const [open, setOpen] = useState<BatchUpdate | null>(null);
  const [version, setVersion] = useState(0);
  return (
    <>
      <CardSection title="Uploads and their results">
        <BatchUpdateHistory onOpen={setOpen} version={version} />
      </CardSection>
      {open ? (
        <CardSection title={`${sourceLabel(open)}, ${formatDateTime(open.created_at)}`}>
          <BatchUpdateDetails key={open.id} id={open.id} />
        </CardSection>
      ) : null}
      <CardSection title="Upload a batch file">
        <BatchFileUploader onChange={() => setVersion((v) => v + 1)} />
      </CardSection>
    </>
  );
}
