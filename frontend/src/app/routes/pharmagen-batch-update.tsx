import { Link, Navigate } from 'react-router';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { isPathAllowed } from '@/lib/access/path-access';
import { useAppStore } from '@/stores/app-store';

/** The batch-update pages of the client areas, in the order they are offered. */
const CLIENT_BATCH_UPDATES = [paths.gmeBatchUpdate, paths.clientB.dashboard];

/**
 * `/pharmagen/batchupdate`: a path of the spec's role table (§6) with no
 * page of its own in §2. A client's admin goes on to the batch updates of
 * their client area; a brand's admin or manager learns where batch data
 * comes from, since batch updates are the pharmaceutical clients' (the
 * server refuses them to brands).
 */
export function Component() {
  const allowedPaths = useAppStore((s) => s.auth.allowedPaths);
  const clientPage = CLIENT_BATCH_UPDATES.find((route) => isPathAllowed(route.path, allowedPaths));
  if (clientPage) return <Navigate to={clientPage.href()} replace />;
  return (
    <>
      <PageHeader
        title="Batch update"
        description="Schedule H2 batch data for pharmaceutical packs."
      />
      <CardSection title="Batch updates are for pharmaceutical clients">
        <p>
          Pharmaceutical client organisations assign batch data (batch number, manufacturing and
          expiry dates, licence number) to their codes on their own batch-update pages. Brand
          organisations do not update batches here.
        </p>
        <p className="muted">
          Your codes carry the lot number and expiry date they were generated with: set them when
          you generate codes for a product.
        </p>
        <div className="form-actions form-actions--start">
          <Link className="btn btn--secondary" to={paths.products.href()}>
            Go to products
          </Link>
        </div>
      </CardSection>
    </>
  );
}
