import { AddProductPage } from '@/features/products/components/product-form-pages';
import { useOrgCompanies } from './org-companies';

export function Component() {
  return <AddProductPage companies={useOrgCompanies()} />;
}
