import { Fragment, useEffect, useEffectEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canChangeProducts } from '../access';
import { fetchProduct, type Product } from '../api/products-api';
import { attributeText } from '../product-attributes';
import { ProductImages } from './product-images';

const none = <span className="muted">None</span>;

function hasMetadata(metadata: unknown): boolean {
  if (metadata === null || metadata === undefined) return false;
  if (typeof metadata === 'object') return Object.keys(metadata).length > 0;
  return true;
}

function ProductDetails({ product }: { product: Product }) {
  return (
    <dl className="dl">
      <dt>Name</dt>
      <dd>{product.product_name}</dd>
      <dt>SKU id</dt>
      <dd>{product.skuid}</dd>
      <dt>GTIN</dt>
      <dd className="mono">{product.gtin}</dd>
      <dt>Category</dt>
      <dd>{product.category || none}</dd>
      <dt>Description</dt>
      <dd className="pre-wrap">{product.product_description || none}</dd>
      <dt>Unit of measure</dt>
      <dd>{product.unit}</dd>
      <dt>Requires inspection</dt>
      <dd>{product.requires_inspection ? 'Yes: new lots wait in quarantine' : 'No'}</dd>
      <dt>Metadata</dt>
      <dd>
        {hasMetadata(product.metadata) ? (
          <pre className="code-block">{JSON.stringify(product.metadata, null, 2)}</pre>
        ) : (
          none
        )}
      </dd>
      <dt>Sample code</dt>
      <dd>{product.sample_qr_id ?? none}</dd>
      <dt>Created</dt>
      <dd>{formatDate(product.created_at)}</dd>
      <dt>Last changed</dt>
      <dd>{formatDate(product.updated_at)}</dd>
      {product.archived_at ? (
        <>
          <dt>Archived</dt>
          <dd>
            <span className="badge badge--warning">Archived</span> {formatDate(product.archived_at)}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function ProductAttributes({ product }: { product: Product }) {
  if (product.attributes.length === 0) return <p className="muted">No attributes.</p>;
  return (
    <dl className="dl">
      {product.attributes.map((attribute) => (
        <Fragment key={attribute.name}>
          <dt>{attribute.name}</dt>
          <dd>{attributeText(attribute)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * `/products/{id}`: one product (spec §2). `sections` renders what other
 * features show for the loaded product below its details (the app layer
 * composes them: features do not import each other).
 */
export function ProductDetailPage({
  id,
  sections,
  refreshKey = 0,
}: {
  id: string;
  sections?: (product: Product) => ReactNode;
  /** A change here asks for the product again, quietly (its sample code after a code job). */
  refreshKey?: number;
}) {
  const role = useAppStore((s) => s.auth.user?.role);
  const { result, reload, update } = useApiResult(() => fetchProduct(id));
  const refreshed = useEffectEvent((product: Product) => update(() => product));
  useEffect(() => {
    if (refreshKey === 0) return;
    let active = true;
    void fetchProduct(id).then((next) => {
      if (active && next.ok) refreshed(next.data);
    });
    return () => {
      active = false;
    };
  }, [id, refreshKey]);
  const product = result?.ok ? result.data : null;
  const canEdit = canChangeProducts(role) && product !== null && !product.archived_at;

  return (
    <>
      <PageHeader
        title={product?.product_name ?? 'Product'}
        description={product ? `SKU id ${product.skuid}` : undefined}
        actions={
          <>
            <Link className="btn btn--secondary" to={paths.products.href()}>
              All products
            </Link>
            {canEdit ? (
              <Link className="btn btn--primary" to={paths.productEdit.href(id)}>
                Edit
              </Link>
            ) : null}
          </>
        }
      />
      <CardSection title="Details">
        <ApiResultView result={result} onRetry={reload} loadingLabel="Loading the product…">
          {(data) => <ProductDetails product={data} />}
        </ApiResultView>
      </CardSection>
      {product ? (
        <>
          <ProductImages product={product} canEdit={canEdit} onChanged={(p) => update(() => p)} />
          <CardSection title="Attributes">
            <ProductAttributes product={product} />
          </CardSection>
        </>
      ) : null}
      {product && sections ? sections(product) : null}
    </>
  );
}
