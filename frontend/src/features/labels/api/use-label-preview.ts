import { useEffect, useState } from 'react';
import { previewLabel, type Design, type PreviewRequest } from './labels-api';

/** How long the designer waits after the last change before asking for a preview. */
export const PREVIEW_DELAY_MS = 300;

export interface LabelPreviewState {
  /** The last preview drawn (a `data:` URL of its PNG), kept while the next one loads. */
  url: string | null;
  /** Why the last request drew nothing (the renderer's reason for a design it refuses). */
  error: string | null;
  /** Whether what is shown belongs to an older design than the one asked for now. */
  loading: boolean;
}

interface Settled {
  key: string;
  url: string | null;
  error: string | null;
}

/**
 * The PNG as a `data:` URL. Not an object URL: the app's Content-Security-
 * Policy allows images from `'self'` and `data:` only (`img-src`, set by the
 * server), so a `blob:` URL would not be drawn. A preview is a few kilobytes.
 */
export async function pngDataUrl(png: Blob): Promise<string> {
  const bytes = new Uint8Array(await png.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:image/png;base64,${btoa(binary)}`;
}

/**
 * The live preview of `design` (null while the form cannot describe one):
 * asked for `PREVIEW_DELAY_MS` after the last change, the answers to older
 * designs dropped. The last image drawn stays until the next one arrives.
 */
export function useLabelPreview(design: Design | null, codeJobId: string): LabelPreviewState {
  const key = design
    ? JSON.stringify({ design, ...(codeJobId ? { code_job_id: codeJobId } : {}) })
    : null;
  const [settled, setSettled] = useState<Settled | null>(null);

  useEffect(() => {
    if (key === null) return;
    let stale = false;
    const timer = setTimeout(() => {
      void (async () => {
        const result = await previewLabel(JSON.parse(key) as PreviewRequest);
        if (stale) return;
        if (!result.ok) {
          setSettled((last) => ({ key, url: last?.url ?? null, error: result.message }));
          return;
        }
        const url = await pngDataUrl(result.data);
        if (!stale) setSettled({ key, url, error: null });
      })();
    }, PREVIEW_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [key]);

  return {
    url: settled?.url ?? null,
    error: settled?.error ?? null,
    loading: key !== null && settled?.key !== key,
  };
}
