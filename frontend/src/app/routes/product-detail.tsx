import { useParams } from 'react-router';
import { ProductCodes } from '@/features/codes/components/product-codes';
import { ProductJourney } from '@/features/journey/components/product-journey';
import { ProductDetailPage } from '@/features/products/components/product-detail-page';
import { useHasModule } from '@/hooks/use-access';

export function Component() {
  const { id = '' } = useParams();
  // Code jobs and the journey are plan modules of their own.
  const hasModule = useHasModule();
  // A new id is a new page: its own load, nothing of the previous product.
  return (
    <ProductDetailPage
      key={id}
      id={id}
      sections={(product) => (
        <>
          {hasModule('codes') ? (
            <ProductCodes productId={product.id} archived={Boolean(product.archived_at)} />
          ) : null}
          {hasModule('journey') ? (
            <ProductJourney skuid={product.skuid} archived={Boolean(product.archived_at)} />
          ) : null}
        </>
      )}
    />
  );
}
