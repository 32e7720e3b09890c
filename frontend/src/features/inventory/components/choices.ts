import type { Catalogue } from '../api/use-catalogue';
import { locationLabel } from '../location-tree';

/** The options of a product select, after an empty one labelled `none`. */
export function productOptions(catalogue: Catalogue, none: string) {
  return [
    { value: '', label: none },
    ...catalogue.products.map((p) => ({ value: p.id, label: p.product_name })),
  ];
}

/** The options of a location select, in tree order, after an empty one labelled `none`. */
export function locationOptions(catalogue: Catalogue, none: string) {
  return [
    { value: '', label: none },
    ...catalogue.tree.map((entry) => ({ value: entry.location.id, label: locationLabel(entry) })),
  ];
}
