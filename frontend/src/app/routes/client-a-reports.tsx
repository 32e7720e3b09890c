import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { BatchReports } from '@/features/batch-updates/components/batch-reports';
import { useCanOpen } from '@/hooks/use-access';

/**
 * `/clientA/reports`: the history of client A's batch uploads, each with
 * its outcome and its result file, and the file uploader (the spec's "shows
 * a file uploader"). The batch update page (`/gme/batchUpdate`) leads with
 * the uploader and explains a file's columns and templates.
 */
export function Component() {
  const canOpen = useCanOpen();
  const upload = canOpen(paths.gmeBatchUpdate.path);
  return (
    <>
      <PageHeader
        title="Batch reports"
        description="Every batch upload of your organisation, newest first: who sent it, when, its rows and outcome, and its result to download."
        actions={
          upload ? (
            <Link className="btn btn--secondary" to={paths.gmeBatchUpdate.href()}>
              Batch update page
            </Link>
          ) : null
        }
      />
      <BatchReports />
    </>
  );
}
