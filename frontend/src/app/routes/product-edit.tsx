import { useParams } from 'react-router';
import { EditProductPage } from '@/features/products/components/product-form-pages';

export function Component() {
  const { key = '' } = useParams();
  return <EditProductPage key={key} id={key} />;
}
