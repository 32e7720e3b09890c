import { AddCircleIcon } from '@solar-icons/react/linear/add-circle';
import { BoxIcon } from '@solar-icons/react/linear/box';
import { ArchiveDownMinimalisticIcon } from '@solar-icons/react/linear/archive-down-minimalistic';
import { DownloadMinimalisticIcon } from '@solar-icons/react/linear/download-minimalistic';
import { PenIcon } from '@solar-icons/react/linear/pen';
import { UploadMinimalisticIcon } from '@solar-icons/react/linear/upload-minimalistic';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable, type Column } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField, TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useCanOpen } from '@/hooks/use-access';
import { formatDate, formatNumber } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { canChangeProducts } from '../access';
import { archiveProduct, loadProducts, type Product } from '../api/products-api';
import { productMessages } from '../messages';
import {
  PRODUCT_SORTS,
  pageCount,
  pageOf,
  productCategories,
  queryProducts,
  type ProductSort,
} from '../product-list';
import { Pager } from './pager';
import { ProductImport } from './product-import';

/** The active products as CSV, in the import's columns (a plain download). */
const EXPORT_URL = '/api/products/export.csv';

const PRODUCT_COLUMNS: readonly Column<Product>[] = [
  {
    header: 'Name',
    cell: (p) => <Link to={paths.productDetail.href(p.id)}>{p.product_name}</Link>,
  },
  { header: 'SKU id', cell: (p) => p.skuid },
  { header: 'GTIN', cell: (p) => <span className="mono">{p.gtin}</span> },
  { header: 'Category', cell: (p) => p.category || <span className="muted">—</span> },
  { header: 'Created', cell: (p) => formatDate(p.created_at) },
];

/** `/products`: the organisation's products (spec §2, §8, §9). */
export function ProductsPage() {
  const products = useAppStore((s) => s.products);
  const role = useAppStore((s) => s.auth.user?.role);
  const canOpen = useCanOpen();
  const canAdd = canOpen(paths.productAdd.href());
  const canChange = canChangeProducts(role);
  const limitNoteId = useId();

  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<ProductSort>('name');
  const [page, setPage] = useState(1);
  const [archiving, setArchiving] = useState<Product | null>(null);
  const [archiveBusy, setArchiveBusy] = useState(false);
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    void loadProducts();
  }, []);

  const { products: items, maxProducts, addedProducts, limitKnown } = products.data;
  const categories = useMemo(() => productCategories(items), [items]);
  const shown = useMemo(
    () => queryProducts(items, { search, category, sort }),
    [items, search, category, sort],
  );
  const pages = pageCount(shown.length);
  const current = Math.min(page, pages);
  const atLimit = limitKnown && addedProducts >= maxProducts;
  const loaded = products.status === 'succeeded';

  async function confirmArchive() {
    if (!archiving) return;
    setArchiveBusy(true);
    const result = await archiveProduct(archiving.id);
    setArchiveBusy(false);
    setArchiving(null);
    if (result.ok) toast.success(productMessages.archived);
    else toast.error(result.message);
  }

  const addButton = !canAdd ? null : atLimit ? (
    <Button disabled aria-describedby={limitNoteId}>
      <AddCircleIcon />
      Add product
    </Button>
  ) : (
    <Link className="btn btn--primary" to={paths.productAdd.href()}>
      <AddCircleIcon />
      Add product
    </Link>
  );

  return (
    <>
      <PageHeader
        title="Products"
        description="Your product catalogue: what you register before you generate codes."
        actions={
          <>
            <a className="btn btn--secondary" href={EXPORT_URL} download>
              <DownloadMinimalisticIcon />
              Export CSV
            </a>
            {canChange ? (
              <Button
                variant="secondary"
                aria-expanded={importing}
                onClick={() => setImporting((open) => !open)}
              >
                <UploadMinimalisticIcon />
                Import CSV
              </Button>
            ) : null}
            {addButton}
          </>
        }
      />

      {canChange && importing ? <ProductImport onImported={() => void loadProducts()} /> : null}

      {loaded ? (
        <p className="products-usage" role="status">
          <strong>{formatNumber(addedProducts)}</strong> of {formatNumber(maxProducts)} products
          {atLimit && canAdd ? (
            <span id={limitNoteId} className="products-usage__note">
              {' '}
              — {productMessages.limitReached} Archive a product, or ask for a higher limit, to add
              another.
            </span>
          ) : null}
        </p>
      ) : null}

      {products.status === 'failed' ? (
        <ErrorAlert onRetry={() => void loadProducts()}>{products.error}</ErrorAlert>
      ) : null}

      {products.status === 'loading' && items.length === 0 ? (
        <LoadingBlock label="Loading products…" />
      ) : null}

      {loaded && items.length === 0 ? (
        <EmptyState icon={<BoxIcon />}>
          No products yet.{canAdd ? ' Add your first product to start.' : ''}
        </EmptyState>
      ) : null}

      {items.length > 0 ? (
        <>
          <div className="toolbar" role="search" aria-label="Products">
            <TextField
              label="Search"
              type="search"
              placeholder="Name, SKU id or GTIN"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
            <SelectField
              label="Category"
              value={category}
              onChange={(e) => {
                setCategory(e.target.value);
                setPage(1);
              }}
              options={[
                { value: '', label: 'All categories' },
                ...categories.map((c) => ({ value: c, label: c })),
              ]}
            />
            <SelectField
              label="Sort by"
              value={sort}
              onChange={(e) => {
                setSort(e.target.value as ProductSort);
                setPage(1);
              }}
              options={PRODUCT_SORTS}
            />
          </div>
          <p className="muted products-count" aria-live="polite">
            {shown.length === items.length
              ? `${formatNumber(items.length)} products`
              : `${formatNumber(shown.length)} of ${formatNumber(items.length)} products match`}
          </p>
          <DataTable
            label="Products"
            columns={PRODUCT_COLUMNS}
            rows={pageOf(shown, current)}
            rowKey={(p) => p.id}
            empty="No product matches your search."
            actions={
              canChange
                ? (p) => (
                    <>
                      <Link
                        className="icon-btn"
                        to={paths.productEdit.href(p.id)}
                        title="Edit"
                        aria-label={`Edit ${p.product_name}`}
                      >
                        <PenIcon />
                      </Link>
                      <button
                        type="button"
                        className="icon-btn icon-btn--danger"
                        title="Archive"
                        aria-label={`Archive ${p.product_name}`}
                        onClick={() => setArchiving(p)}
                      >
                        <ArchiveDownMinimalisticIcon />
                      </button>
                    </>
                  )
                : undefined
            }
          />
          <Pager page={current} pages={pages} onPage={setPage} label="Product pages" />
        </>
      ) : null}

      <ConfirmDialog
        open={archiving !== null}
        title="Archive product"
        message={productMessages.confirmArchive}
        detail={
          archiving
            ? `${archiving.product_name} (${archiving.skuid}) leaves the list and stops counting against your limit; its GTIN stays registered to your organisation.`
            : null
        }
        confirmLabel="Archive"
        busy={archiveBusy}
        onConfirm={() => void confirmArchive()}
        onCancel={() => setArchiving(null)}
      />
    </>
  );
}
