import { ProductsPage } from '@/features/products/components/products-page';

export function Component() {
  return <ProductsPage />;
}
