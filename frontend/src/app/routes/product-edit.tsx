import { useParams } from 'react-router';
import { EditProductPage } from '@/features/products/components/product-form-pages';
import { useOrgCompanies } from './org-companies';

export function Component() {
  const { key = '' } = useParams();
  const companies = useOrgCompanies();
  return <EditProductPage key={key} id={key} companies={companies} />;
}
