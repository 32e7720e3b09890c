import { Navigate, useNavigate } from 'react-router';
import { ApiResultView } from '@/components/ui/api-result-view';
import { ErrorAlert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useApiResult } from '@/hooks/use-api-result';
import { useAppStore } from '@/stores/app-store';
import { canChangeProducts } from '../access';
import { fetchProduct } from '../api/products-api';
import type { CompanyChoice } from '../product-form';
import { ProductForm } from './product-form';

/** `/products/Add_product`; `companies`: the organisation's, when it has any. */
export function AddProductPage({ companies }: { companies?: readonly CompanyChoice[] }) {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Add product" description="Register a product of your catalogue." />
      <ProductForm
        companies={companies}
        onSaved={(product) => void navigate(paths.productDetail.href(product.id))}
        onCancel={() => void navigate(paths.products.href())}
      />
    </>
  );
}

/** `/products/Edit_product/{key}`, where `key` is the product's id. */
export function EditProductPage({
  id,
  companies,
}: {
  id: string;
  companies?: readonly CompanyChoice[];
}) {
  const role = useAppStore((s) => s.auth.user?.role);
  if (!canChangeProducts(role)) return <Navigate to={paths.unauthorized.href()} replace />;
  return <EditProduct id={id} companies={companies} />;
}

function EditProduct({ id, companies }: { id: string; companies?: readonly CompanyChoice[] }) {
  const navigate = useNavigate();
  const { result, reload } = useApiResult(() => fetchProduct(id));
  return (
    <>
      <PageHeader title="Edit product" />
      <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the product…">
        {(product) =>
          product.archived_at ? (
            <ErrorAlert>This product is archived and can no longer be changed.</ErrorAlert>
          ) : (
            <ProductForm
              original={product}
              companies={companies}
              onSaved={(saved) => void navigate(paths.productDetail.href(saved.id))}
              onCancel={() => void navigate(paths.productDetail.href(product.id))}
            />
          )
        }
      </ApiResultView>
    </>
  );
}
