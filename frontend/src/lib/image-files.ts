/**
 * What the server takes as an image upload (product images, the
 * organisation's logo): its type read from the content, at most 5 MB. The
 * browser's check comes first, for a clear message before sending.
 */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Why `file` is not an image the server takes, or null when it may be sent. */
export function imageTypeProblem(file: File): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type))
    return `${file.name} is not a PNG, JPEG or WebP image.`;
  if (file.size > IMAGE_MAX_BYTES)
    return `${file.name} is larger than 5 MB: choose a smaller image.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}
