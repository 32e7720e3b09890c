import type { components } from '@/lib/api/schema';
import { initialRequestState, type RequestState, type SetSlice } from '@/lib/slice';

type Product = components['schemas']['Product'];

/** The product list as the page keeps it, with the spec's defaults applied (§9). */
export interface ProductListData {
  products: Product[];
  maxProducts: number;
  addedProducts: number;
  /** False when the server sent no limit (then `maxProducts` is the spec's default). */
  limitKnown: boolean;
}

export interface ProductsSlice {
  /** The organisation's active products (the product list, spec §3). */
  products: RequestState<ProductListData>;
}

export interface ProductsActions {
  /** A product was added or changed: it is shown (and counted, when new) without a reload. */
  productSaved: (product: Product) => void;
  /** A product was archived: it leaves the list and stops counting. */
  productArchived: (id: Product['id']) => void;
}

export function emptyProductList(): ProductListData {
  return { products: [], maxProducts: 0, addedProducts: 0, limitKnown: false };
}

export function initialProductsSlice(): ProductsSlice {
  return { products: initialRequestState<ProductListData>(emptyProductList()) };
}

export function productsActions(set: SetSlice<ProductsSlice>): ProductsActions {
  return {
    productSaved: (product) =>
      set((s) => {
        // Not loaded yet: the next load brings it.
        if (s.products.status !== 'succeeded') return {};
        const list = s.products.data;
        const known = list.products.some((p) => p.id === product.id);
        const products = known
          ? list.products.map((p) => (p.id === product.id ? product : p))
          : [...list.products, product];
        return {
          products: {
            ...s.products,
            data: {
              ...list,
              products,
              addedProducts: known ? list.addedProducts : list.addedProducts + 1,
            },
          },
        };
      }),

    productArchived: (id) =>
      set((s) => {
        const list = s.products.data;
        if (!list.products.some((p) => p.id === id)) return {};
        return {
          products: {
            ...s.products,
            data: {
              ...list,
              products: list.products.filter((p) => p.id !== id),
              addedProducts: Math.max(0, list.addedProducts - 1),
            },
          },
        };
      }),
  };
}
