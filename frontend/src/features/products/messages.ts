/** Every text the product pages show for an outcome (spec §8), in one place. */
export const productMessages = {
  loadFailed: 'Failed to fetch products',
  added: 'Product added.',
  updated: 'Product updated.',
  archived: 'Product archived.',
  archiveFailed: 'The product could not be archived.',
  confirmArchive: 'Are you sure you want to archive this product?',
  notLoaded: 'The product could not be loaded.',
  notSaved: 'The product could not be saved. Please try again.',
  limitReached: 'You have reached your plan’s limit of products.',
  imageAdded: 'Image added.',
  imageNotAdded: 'The image could not be added. Please try again.',
  imageRemoved: 'Image removed.',
  imageNotRemoved: 'The image could not be removed. Please try again.',
  confirmRemoveImage: 'Are you sure you want to remove this image?',
  importFailed: 'The file could not be imported. Please try again.',
} as const;
