import { formatNumber } from '@/lib/format';

/** The import's file limit (`POST /api/products/import`). */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;

function products(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? 'product' : 'products'}`;
}

export function readyMessage(rows: number): string {
  return rows === 0 ? 'The file has no products.' : `${products(rows)} ready to import.`;
}

export function importedMessage(created: number): string {
  return `${products(created)} imported.`;
}

/** The text of a chosen file (UTF-8), or null when it cannot be read. */
export function readFileText(file: Blob): Promise<string | null> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
    reader.onerror = () => resolve(null);
    reader.readAsText(file, 'utf-8');
  });
}
