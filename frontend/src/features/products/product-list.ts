import type { Product } from './api/products-api';

export type ProductSort = 'name' | 'skuid' | 'created';

export const PRODUCT_SORTS: readonly { value: ProductSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'skuid', label: 'SKU id' },
  { value: 'created', label: 'Newest first' },
];

export interface ProductQuery {
  /** Matched against name, SKU id and GTIN, ignoring case. */
  search: string;
  /** '' for every category. */
  category: string;
  sort: ProductSort;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The products that match `query`, in its order. */
export function queryProducts(products: readonly Product[], query: ProductQuery): Product[] {
  const needle = query.search.trim().toLowerCase();
  const digits = needle.replace(/\s+/g, '');
  const matching = products.filter((p) => {
    if (query.category && p.category !== query.category) return false;
    if (!needle) return true;
    return (
      p.product_name.toLowerCase().includes(needle) ||
      p.skuid.toLowerCase().includes(needle) ||
      (/^\d+$/.test(digits) && p.gtin.includes(digits))
    );
  });
  const by: Record<ProductSort, (a: Product, b: Product) => number> = {
    name: (a, b) => collator.compare(a.product_name, b.product_name),
    skuid: (a, b) => collator.compare(a.skuid, b.skuid),
    created: (a, b) => b.created_at.localeCompare(a.created_at),
  };
  return [...matching].sort(by[query.sort]);
}

/** The categories in use, sorted, without the empty one. */
export function productCategories(products: readonly Product[]): string[] {
  return [...new Set(products.map((p) => p.category).filter(Boolean))].sort(collator.compare);
}

export const PAGE_SIZE = 10;
/** How many page numbers the pager shows at once (spec §9). */
export const PAGE_WINDOW = 5;

export function pageCount(items: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(items / pageSize));
}

/** The items of page `page` (1-based). */
export function pageOf<T>(items: readonly T[], page: number, pageSize = PAGE_SIZE): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}

/**
 * The page numbers to show: at most `size`, around `current` (centred when
 * possible, shifted at either end).
 */
export function pageWindow(current: number, total: number, size = PAGE_WINDOW): number[] {
  if (total <= 0) return [];
  const page = Math.min(Math.max(1, current), total);
  let start = Math.max(1, page - Math.floor(size / 2));
  const end = Math.min(total, start + size - 1);
  start = Math.max(1, end - size + 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}
