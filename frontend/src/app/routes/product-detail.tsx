import { useParams } from 'react-router';
import { ProductCodes } from '@/features/codes/components/product-codes';
import { ProductJourney } from '@/features/journey/components/product-journey';
import { ProductDetailPage } from '@/features/products/components/product-detail-page';

export function Component() {
  const { id = '' } = useParams();
  // A new id is a new page: its own load, nothing of the previous product.
  return (
    <ProductDetailPage
      key={id}
      id={id}
      sections={(product) => (
        <>
          <ProductCodes productId={product.id} archived={Boolean(product.archived_at)} />
          <ProductJourney skuid={product.skuid} archived={Boolean(product.archived_at)} />
        </>
      )}
    />
  );
}
