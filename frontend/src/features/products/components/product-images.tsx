import { UploadMinimalisticIcon } from '@solar-icons/react/linear/upload-minimalistic';
import { useId, useRef, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { addProductImage, removeProductImage, type Product } from '../api/products-api';
import { productMessages } from '../messages';
import { IMAGE_TYPES, IMAGES_MAX, imageFileProblem } from '../product-images';

/**
 * The product's images: a gallery for everyone; for editors (`canEdit`) an
 * upload control (checked here first: type, size, count) and a Remove button
 * per image. `onChanged` receives the product as the server returns it.
 */
export function ProductImages({
  product,
  canEdit,
  onChanged,
}: {
  product: Product;
  canEdit: boolean;
  onChanged: (product: Product) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const urls = product.image_urls;

  function choose(chosen: File | null) {
    setFile(chosen);
    setProblem(chosen ? imageFileProblem(chosen, urls.length) : null);
  }

  async function upload() {
    if (!file) {
      setProblem('Choose an image first.');
      return;
    }
    const found = imageFileProblem(file, urls.length);
    setProblem(found);
    if (found) return;
    setUploading(true);
    const result = await addProductImage(product.id, file);
    setUploading(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    toast.success(productMessages.imageAdded);
    setFile(null);
    if (input.current) input.current.value = '';
    onChanged(result.data);
  }

  async function confirmRemove() {
    if (!removing) return;
    setRemoveBusy(true);
    const result = await removeProductImage(product.id, removing);
    setRemoveBusy(false);
    setRemoving(null);
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    toast.success(productMessages.imageRemoved);
    onChanged(result.data);
  }

  return (
    <CardSection title="Images">
      {urls.length === 0 ? (
        <p className="muted">No images yet.</p>
      ) : (
        <ul className="plain-list image-gallery">
          {urls.map((url, index) => (
            <li key={url} className="image-gallery__item">
              <img
                src={url}
                alt={`${product.product_name}, image ${index + 1}`}
                loading="lazy"
                className="image-gallery__img"
              />
              {canEdit ? (
                <Button
                  variant="ghost"
                  className="image-gallery__remove"
                  aria-label={`Remove image ${index + 1}`}
                  onClick={() => setRemoving(url)}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <div className="image-upload">
          <div className="field">
            <label className="field__label" htmlFor={inputId}>
              Add an image
            </label>
            <input
              ref={input}
              id={inputId}
              type="file"
              className="input"
              accept={IMAGE_TYPES.join(',')}
              aria-describedby={hintId}
              aria-invalid={problem ? true : undefined}
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
            <span className="field__hint" id={hintId}>
              PNG, JPEG or WebP, at most 5 MB; up to {IMAGES_MAX} images ({urls.length} now).
            </span>
          </div>
          {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
          <Button
            variant="secondary"
            busy={uploading}
            disabled={!file}
            onClick={() => void upload()}
          >
            <UploadMinimalisticIcon />
            {uploading ? 'Uploading…' : 'Upload image'}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove image"
        message={productMessages.confirmRemoveImage}
        detail="The image is deleted for good."
        confirmLabel="Remove"
        busy={removeBusy}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </CardSection>
  );
}
