import { IMAGE_MAX_BYTES, IMAGE_TYPES, imageTypeProblem } from '@/lib/image-files';

/** What the server takes as a product image (`POST /api/products/{id}/images`). */
export { IMAGE_MAX_BYTES, IMAGE_TYPES };
export const IMAGES_MAX = 10;

/** Why `file` cannot be uploaded, or null when it may be sent. */
export function imageFileProblem(file: File, imagesNow: number): string | null {
  if (imagesNow >= IMAGES_MAX)
    return `A product has at most ${IMAGES_MAX} images: remove one to add another.`;
  return imageTypeProblem(file);
}
