import { AddProductPage } from '@/features/products/components/product-form-pages';

export function Component() {
  return <AddProductPage />;
}
