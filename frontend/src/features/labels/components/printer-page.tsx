import { useMemo, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { useApiResult } from '@/hooks/use-api-result';
import { listLabelTemplates, reprintPrintJob, type PrintJob } from '../api/labels-api';
import { loadCodeJobChoices } from '../api/load-code-job-choices';
import { usePrintJobs } from '../api/use-print-jobs';
import { printable, type CodeJobChoice } from '../code-job-choices';
import { labelMessages } from '../messages';
import { NewPrintJobForm } from './new-print-job-form';
import { PrintJobsTable } from './print-jobs-table';

const NO_CODE_JOBS: ReadonlyMap<string, CodeJobChoice> = new Map();

/**
 * `/printer`: the organisation's print jobs, followed every second while one
 * prints, with their files and reprints; and "New print job". Brand admins
 * only (the policy's `view` and `call` rows agree).
 */
export function PrinterPage() {
  const jobs = usePrintJobs();
  const templates = useApiResult(listLabelTemplates);
  const codeJobs = useApiResult(loadCodeJobChoices);
  const [reprinting, setReprinting] = useState<string | null>(null);
  const codeJobResult = codeJobs.result;
  const codeJobsById = useMemo(
    () =>
      codeJobResult?.ok ? new Map(codeJobResult.data.map((c) => [c.id, c] as const)) : NO_CODE_JOBS,
    [codeJobResult],
  );

  async function reprint(job: PrintJob) {
    setReprinting(job.id);
    const result = await reprintPrintJob(job.id);
    setReprinting(null);
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    toast.success(labelMessages.reprintStarted(result.data.total));
    jobs.jobCreated(result.data);
  }

  const choicesLoading = templates.result === null || codeJobResult === null;
  const choicesFailed = [templates.result, codeJobResult].find((r) => r !== null && !r.ok) ?? null;

  return (
    <>
      <PageHeader
        title="Print jobs"
        description="Print a code job’s codes on labels, as PDF or as ZPL for thermal printers."
      />
      <CardSection title="New print job">
        {choicesFailed ? (
          <ErrorAlert
            onRetry={() => {
              if (templates.result?.ok === false) templates.reload();
              if (codeJobResult?.ok === false) codeJobs.reload();
            }}
          >
            {choicesFailed.message}
          </ErrorAlert>
        ) : choicesLoading ? (
          <LoadingBlock label="Loading the templates and code jobs…" />
        ) : (
          <NewPrintJobForm
            templates={templates.result?.ok ? templates.result.data.templates : []}
            codeJobs={codeJobResult?.ok ? printable(codeJobResult.data) : []}
            onCreated={jobs.jobCreated}
          />
        )}
      </CardSection>
      <CardSection title="Print jobs">
        <ApiResultView
          result={jobs.result}
          onRetry={jobs.reload}
          loadingLabel="Loading the print jobs…"
        >
          {(data) => (
            <>
              {jobs.refreshError ? (
                <p className="field__error" role="status">
                  {jobs.refreshError}
                </p>
              ) : null}
              <PrintJobsTable
                jobs={data.jobs}
                codeJobs={codeJobsById}
                reprinting={reprinting}
                onReprint={(job) => void reprint(job)}
              />
            </>
          )}
        </ApiResultView>
      </CardSection>
    </>
  );
}
