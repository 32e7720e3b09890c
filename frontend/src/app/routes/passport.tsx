import { useParams } from 'react-router';
import { PassportPage } from '@/features/passports/components/passport-page';

export function Component() {
  const { productId = '' } = useParams();
  return <PassportPage productId={productId} />;
}
