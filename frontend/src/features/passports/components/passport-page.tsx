import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiResultView } from '@/components/ui/api-result-view';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { DataTable, type Column } from '@/components/ui/data-table';
import { TextField } from '@/components/ui/form-field';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useApiResult } from '@/hooks/use-api-result';
import { formatDate } from '@/lib/format';
import { LOT_PATTERN } from '@/lib/gs1';
import {
  getPassport,
  getVersion,
  listVersions,
  type Passport,
  type PassportVersionInfo,
} from '../api/passports-api';
import { missingFieldLabel } from '../passport-form';
import { CompletenessBar } from './completeness-bar';
import { PassportEditor } from './passport-editor';
import { PassportView } from './passport-view';

async function loadPassport(productId: string, lot: string | null) {
  const [passport, versions] = await Promise.all([
    getPassport(productId, lot),
    listVersions(productId, lot),
  ]);
  if (!passport.ok) return passport;
  if (!versions.ok) return versions;
  return { ok: true as const, data: { passport: passport.data, versions: versions.data.versions } };
}

function LotSwitcher({ productId, lot }: { productId: string; lot: string | null }) {
  const [, setSearch] = useSearchParams();
  const [value, setValue] = useState(lot ?? '');
  const [error, setError] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = value.trim();
    if (next && !LOT_PATTERN.test(next)) {
      setError('A lot number is 1 to 20 letters, digits or GS1 punctuation, without spaces.');
      return;
    }
    setError(null);
    setSearch(next ? { lot: next } : {});
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Lot" className="inline-form">
      <TextField
        label="Lot (leave empty for the product's passport)"
        value={value}
        error={error}
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" variant="secondary">
        Open
      </Button>
      {lot ? (
        <Link to={paths.dppPassport.href(productId)} onClick={() => setValue('')}>
          Product passport
        </Link>
      ) : null}
    </form>
  );
}

function History({
  productId,
  lot,
  versions,
}: {
  productId: string;
  lot: string | null;
  versions: PassportVersionInfo[];
}) {
  const [shown, setShown] = useState<{ version: number; passport: Passport | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function open(version: number) {
    setError(null);
    setShown({ version, passport: null });
    const result = await getVersion(productId, version, lot);
    if (result.ok) setShown({ version, passport: result.data });
    else {
      setShown(null);
      setError(result.message);
    }
  }
  const columns: readonly Column<PassportVersionInfo>[] = [
    { header: 'Version', cell: (v) => v.version },
    { header: 'Saved', cell: (v) => formatDate(v.saved_at) },
    {
      header: 'Completeness',
      className: 'share',
      cell: (v) => <CompletenessBar value={v.completeness} label={`Version ${v.version}`} />,
    },
  ];
  return (
    <CardSection title="Version history">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <DataTable
        label="Versions"
        columns={columns}
        rows={versions}
        rowKey={(v) => String(v.version)}
        empty="Nothing saved yet."
        actions={(v) => (
          <Button variant="secondary" onClick={() => void open(v.version)}>
            View version {v.version}
          </Button>
        )}
      />
      {shown ? (
        <section aria-label={`Version ${shown.version} (read-only)`} className="passport-old">
          <h3>
            Version {shown.version} (read-only){' '}
            <Button variant="ghost" onClick={() => setShown(null)}>
              Close
            </Button>
          </h3>
          {shown.passport ? <PassportView passport={shown.passport} /> : <p>Loading…</p>}
        </section>
      ) : null}
    </CardSection>
  );
}

function PassportScreen({ productId, lot }: { productId: string; lot: string | null }) {
  const { result, reload } = useApiResult(() => loadPassport(productId, lot));
  return (
    <ApiResultView result={result} onRetry={reload}>
      {({ passport, versions }) => {
        const inherited = lot !== null && passport.lot === undefined;
        return (
          <>
            <PageHeader
              title={`Passport: ${passport.product_name}`}
              description={
                lot
                  ? `Lot ${lot}: its own passport replaces the product's for this lot.`
                  : 'The product’s passport (lots without a passport of their own show this one).'
              }
              actions={<Link to={paths.dpp.href()}>All passports</Link>}
            />
            <CardSection title="Overview">
              <LotSwitcher productId={productId} lot={lot} />
              <p role="status">
                {passport.version === 0
                  ? 'No version saved yet.'
                  : inherited
                    ? `Lot ${lot} has no passport of its own yet: below is the product's version ${passport.version}; saving creates the lot's own.`
                    : `Current version ${passport.version}, saved ${formatDate(passport.saved_at)}.`}
              </p>
              <CompletenessBar value={passport.completeness} label="Completeness" />
              {passport.missing.length > 0 ? (
                <p className="muted">
                  Still missing: {passport.missing.map(missingFieldLabel).join(', ')}.
                </p>
              ) : null}
            </CardSection>
            <PassportEditor
              key={`${passport.lot ?? ''}:${passport.version}`}
              passport={passport}
              productId={productId}
              lot={lot}
              onSaved={() => reload()}
            />
            <History productId={productId} lot={lot} versions={versions} />
          </>
        );
      }}
    </ApiResultView>
  );
}

/** `/DPP/{productId}[?lot=]`: a passport's editor and its versions. */
export function PassportPage({ productId }: { productId: string }) {
  const [search] = useSearchParams();
  const lot = search.get('lot') || null;
  return <PassportScreen key={`${productId}:${lot ?? ''}`} productId={productId} lot={lot} />;
}
