import { useEffect, useMemo } from 'react';
import { BulkDownloadPage } from '@/features/codes/components/bulk-download-page';
import { loadProducts } from '@/features/products/api/products-api';
import { useAppStore } from '@/stores/app-store';

/** `/pmbi/codeDownload`: the codes feature's bulk download, its batches named by product. */
export function Component() {
  const products = useAppStore((s) => s.products);
  useEffect(() => {
    void loadProducts();
  }, []);
  const names = useMemo(
    () =>
      products.status === 'succeeded'
        ? new Map(products.data.products.map((p) => [p.id, p.product_name]))
        : undefined,
    [products],
  );
  return <BulkDownloadPage productNames={names} />;
}
