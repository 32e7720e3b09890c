import { useApiResult } from '@/hooks/use-api-result';
import type { ApiResult } from '@/lib/api/call-api';
import { locationTree, type TreeEntry } from '../location-tree';
import { fetchLocations, fetchProducts, type Location, type ProductChoice } from './inventory-api';

/** What every section of `/inventory` names things by: the products and the locations. */
export interface Catalogue {
  products: ProductChoice[];
  locations: Location[];
  /** The locations in tree order, with their paths. */
  tree: TreeEntry<Location>[];
  productName: (id: string | null | undefined) => string;
  locationPath: (id: string | null | undefined) => string;
}

export function catalogueOf(products: ProductChoice[], locations: Location[]): Catalogue {
  const tree = locationTree(locations);
  const names = new Map(products.map((p) => [p.id, p.product_name]));
  const paths = new Map(tree.map((e) => [e.location.id, e.path]));
  return {
    products: [...products].sort((a, b) => a.product_name.localeCompare(b.product_name)),
    locations,
    tree,
    productName: (id) => (id ? (names.get(id) ?? 'Unknown product') : '—'),
    locationPath: (id) => (id ? (paths.get(id) ?? 'Unknown location') : '—'),
  };
}

async function loadCatalogue(): Promise<ApiResult<Catalogue>> {
  const [products, locations] = await Promise.all([fetchProducts(), fetchLocations()]);
  if (!products.ok) return products;
  if (!locations.ok) return locations;
  return { ok: true, data: catalogueOf(products.data, locations.data) };
}

/** Loads the catalogue on mount; `update` adds a location the server confirmed. */
export function useCatalogue() {
  const { result, reload, update } = useApiResult(loadCatalogue);
  return {
    result,
    reload,
    locationAdded: (location: Location) =>
      update((c) => catalogueOf(c.products, [...c.locations, location])),
  };
}
