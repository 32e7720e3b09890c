import { ErrorAlert } from '@/components/ui/alert';
import type { Design } from '../api/labels-api';
import { useLabelPreview } from '../api/use-label-preview';
import { SYMBOLOGY_NAMES, sizeText } from '../design-form';

/**
 * The live preview of the design being edited: one label as the server's
 * renderer draws it (8 dots per millimetre), redrawn a moment after each
 * change. While the next one is drawn the last one stays, dimmed; a design
 * the renderer refuses shows its reason instead of the image, and so does a
 * form that cannot describe a design yet (`problem`).
 */
export function LabelPreview({
  design,
  problem,
  codeJobId,
  source,
}: {
  design: Design | null;
  /** Why the form describes no design yet (a field's error). */
  problem: string | null;
  /** The code job whose first code the label shows; '' for a sample code. */
  codeJobId: string;
  /** What the label shows, for people: `a sample code`, `the first code of …`. */
  source: string;
}) {
  const { url, error, loading } = useLabelPreview(problem ? null : design, codeJobId);
  const message = problem ?? error;
  const showImage = url !== null && (loading || message === null);
  const description = design
    ? `${sizeText(design)}, ${SYMBOLOGY_NAMES[design.symbology]}, with ${source}`
    : null;

  return (
    <div className={`label-preview${loading ? ' label-preview--loading' : ''}`} aria-busy={loading}>
      <div className="label-preview__stage">
        {showImage ? (
          <img
            className="label-preview__image"
            src={url}
            alt={description ? `Preview of the label: ${description}` : 'Preview of the label'}
          />
        ) : message !== null ? (
          <ErrorAlert>{message}</ErrorAlert>
        ) : (
          <div
            className="label-preview__placeholder"
            style={design ? { aspectRatio: `${design.width_mm} / ${design.height_mm}` } : undefined}
          >
            Drawing the preview…
          </div>
        )}
      </div>
      <p className="label-preview__caption muted" role="status">
        {loading ? 'Updating the preview…' : message === null && description ? description : ''}
      </p>
    </div>
  );
}
