import { PageHeader } from '@/components/ui/page-header';
import { RecallsSection } from '@/features/recalls/components/recalls-section';

/**
 * `/Logistics`: the recall screen (issue 23). The shipments part of the page
 * is built beside it; the two are combined when merged.
 */
export function Component() {
  return (
    <>
      <PageHeader
        title="Logistics"
        description="Recall a lot and everything made from it, see which shipments and customers it reached, and download the list."
      />
      <RecallsSection />
    </>
  );
}
