/** What the server takes as a product image (`POST /api/products/{id}/images`). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGES_MAX = 10;

/** Why `file` cannot be uploaded, or null when it may be sent. */
export function imageFileProblem(file: File, imagesNow: number): string | null {
  if (imagesNow >= IMAGES_MAX)
    return `A product has at most ${IMAGES_MAX} images: remove one to add another.`;
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type))
    return `${file.name} is not a PNG, JPEG or WebP image.`;
  if (file.size > IMAGE_MAX_BYTES)
    return `${file.name} is larger than 5 MB: choose a smaller image.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}
