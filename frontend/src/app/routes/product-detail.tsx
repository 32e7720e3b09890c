import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { ProductCodes } from '@/features/codes/components/product-codes';
import { ProductJourney } from '@/features/journey/components/product-journey';
import { ProductDetailPage } from '@/features/products/components/product-detail-page';
import { useHasModule } from '@/hooks/use-access';

export function Component() {
  const { id = '' } = useParams();
  // Code jobs and the journey are plan modules of their own.
  const hasModule = useHasModule();
  // A finished code job changes the product's journey, traceability and
  // sample code: each is asked for again, without a reload.
  const [codesFinished, setCodesFinished] = useState(0);
  const onJobFinished = useCallback(() => setCodesFinished((n) => n + 1), []);
  // A new id is a new page: its own load, nothing of the previous product.
  return (
    <ProductDetailPage
      key={id}
      id={id}
      refreshKey={codesFinished}
      sections={(product) => (
        <>
          {hasModule('codes') ? (
            <ProductCodes
              productId={product.id}
              archived={Boolean(product.archived_at)}
              onJobFinished={onJobFinished}
            />
          ) : null}
          {hasModule('journey') ? (
            <ProductJourney
              key={codesFinished}
              skuid={product.skuid}
              archived={Boolean(product.archived_at)}
            />
          ) : null}
        </>
      )}
    />
  );
}
