import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingBlock } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { ICON_STYLES, iconsOf, type IconEntry, type IconStyleKey } from './icon-styles';

const PAGE_SIZE = 240;

const STYLE_OPTIONS = (Object.keys(ICON_STYLES) as IconStyleKey[]).map((key) => ({
  value: key,
  label: ICON_STYLES[key].label,
}));

type Loaded = { style: IconStyleKey; icons: IconEntry[] } | { style: IconStyleKey; error: string };

/** `/icons/solar`: the Solar icon set, searchable, from its npm package. */
export function IconGalleryPage() {
  const [style, setStyle] = useState<IconStyleKey>('linear');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(PAGE_SIZE);
  const deferredQuery = useDeferredValue(query);

  useEffect(() => {
    let active = true;
    ICON_STYLES[style]
      .load()
      .then((module) => {
        if (active) setLoaded({ style, icons: iconsOf(module as Record<string, unknown>) });
      })
      .catch(() => {
        if (active)
          setLoaded({
            style,
            error: 'The icons could not be loaded. Reload the page to try again.',
          });
      });
    return () => {
      active = false;
    };
  }, [style]);

  const current = loaded?.style === style ? loaded : null;
  const matches = useMemo(() => {
    if (!current || !('icons' in current)) return [];
    const words = deferredQuery
      .trim()
      .toLowerCase()
      .split(/[\s-]+/)
      .filter(Boolean);
    if (words.length === 0) return current.icons;
    return current.icons.filter((icon) => words.every((w) => icon.slug.includes(w)));
  }, [current, deferredQuery]);

  async function copyImport(icon: IconEntry) {
    const line = `import { ${icon.name} } from '${ICON_STYLES[style].importPath}/${icon.slug}';`;
    try {
      await navigator.clipboard.writeText(line);
      toast.success(`Copied the import of ${icon.slug}`);
    } catch {
      toast.info(line);
    }
  }

  return (
    <>
      <PageHeader
        title="Solar icons"
        description="The icon set brandops uses. Search by name; select an icon to copy its import."
      />
      <div className="icon-toolbar">
        <TextField
          label="Search icons"
          type="search"
          placeholder="e.g. user, trash, arrow"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setShown(PAGE_SIZE);
          }}
        />
        <SelectField
          label="Style"
          value={style}
          onChange={(e) => {
            setStyle(e.target.value as IconStyleKey);
            setShown(PAGE_SIZE);
          }}
          options={STYLE_OPTIONS}
        />
      </div>
      {current === null ? <LoadingBlock label="Loading icons…" /> : null}
      {current && 'error' in current ? <ErrorAlert>{current.error}</ErrorAlert> : null}
      {current && 'icons' in current ? (
        <>
          <p className="muted" role="status" aria-live="polite">
            {formatNumber(matches.length)} of {formatNumber(current.icons.length)} icons
          </p>
          {matches.length === 0 ? (
            <div className="card empty">No icon matches “{query}”.</div>
          ) : (
            <ul className="icon-grid" aria-label="Icons">
              {matches.slice(0, shown).map((icon) => (
                <li key={icon.name}>
                  <button
                    type="button"
                    className="icon-tile"
                    title={`Copy the import of ${icon.name}`}
                    onClick={() => void copyImport(icon)}
                  >
                    <icon.Component aria-hidden="true" />
                    <span className="icon-tile__name">{icon.slug}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {matches.length > shown ? (
            <div className="form-actions form-actions--center">
              <Button variant="secondary" onClick={() => setShown((n) => n + PAGE_SIZE)}>
                Show more ({formatNumber(matches.length - shown)} left)
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </>
  );
}
