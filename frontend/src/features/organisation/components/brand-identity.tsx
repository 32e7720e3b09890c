import { useId, useRef, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { IMAGE_TYPES, imageTypeProblem } from '@/lib/image-files';
import {
  removeOrganisationLogo,
  uploadOrganisationLogo,
  type Organisation,
} from '../api/organisation-api';

/**
 * "Brand on the scan page": what a consumer who scans one of the brand's
 * codes sees of it, its name (edited under Details) and its logo, with an
 * upload (checked here first: type and size, as product images) and Remove.
 */
export function BrandIdentity({
  organisation,
  onChanged,
}: {
  organisation: Organisation;
  onChanged: (organisation: Organisation) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const logo = organisation.logoUrl;

  function choose(chosen: File | null) {
    setFile(chosen);
    setProblem(chosen ? imageTypeProblem(chosen) : null);
  }

  async function upload() {
    if (!file) {
      setProblem('Choose an image first.');
      return;
    }
    const found = imageTypeProblem(file);
    setProblem(found);
    if (found) return;
    setBusy('upload');
    const result = await uploadOrganisationLogo(file);
    setBusy(null);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    toast.success('Logo saved');
    setFile(null);
    if (input.current) input.current.value = '';
    onChanged(result.data);
  }

  async function remove() {
    setBusy('remove');
    const result = await removeOrganisationLogo();
    setBusy(null);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setProblem(null);
    toast.success('Logo removed');
    onChanged(result.data);
  }

  return (
    <CardSection title="Brand on the scan page">
      <p className="muted">
        A consumer who scans one of your codes sees your name and logo above the verdict, and the
        product’s first image. The name is the organisation name under Details.
      </p>
      <dl className="dl">
        <dt>Name</dt>
        <dd>{organisation.name}</dd>
        <dt>Logo</dt>
        <dd>
          {logo ? (
            <img src={logo} alt={`${organisation.name} logo`} className="brand-logo-preview" />
          ) : (
            <span className="muted">No logo yet: the scan page shows the name alone.</span>
          )}
        </dd>
      </dl>
      <div className="image-upload">
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            {logo ? 'Replace the logo' : 'Upload a logo'}
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
            PNG, JPEG or WebP, at most 5 MB.
          </span>
        </div>
        {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
        <Button
          variant="secondary"
          busy={busy === 'upload'}
          disabled={!file || busy !== null}
          onClick={() => void upload()}
        >
          Upload logo
        </Button>
        {logo ? (
          <Button
            variant="ghost"
            busy={busy === 'remove'}
            disabled={busy !== null}
            onClick={() => void remove()}
          >
            Remove logo
          </Button>
        ) : null}
      </div>
    </CardSection>
  );
}
