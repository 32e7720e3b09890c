import { useState } from 'react';
import { ApiResultView } from '@/components/ui/api-result-view';
import { CardSection } from '@/components/ui/card-section';
import { PageHeader } from '@/components/ui/page-header';
import type { Role } from '@/lib/api/types';
import { canCreateLots, canManageInventory, canRecordStock } from '../access';
import type { Catalogue } from '../api/use-catalogue';
import { useCatalogue } from '../api/use-catalogue';
import { emptyMoveForm } from '../move-form';
import { LedgerSection } from './ledger-section';
import { LocationsSection } from './locations-section';
import { LotForm } from './lot-form';
import { MoveForm } from './move-form';
import { ReplenishmentSection } from './replenishment-section';
import { ReservationsSection } from './reservations-section';
import { StockSection } from './stock-section';
import './inventory.css';

/**
 * "Record a move" with "Register a lot" under it. After a move the form
 * starts again with the same kind, product, lot, locations and currency
 * (the next line of a delivery), and an empty quantity, cost and reference.
 */
function MoveSection({
  catalogue,
  mayCreateLots,
  onMoved,
}: {
  catalogue: Catalogue;
  mayCreateLots: boolean;
  onMoved: () => void;
}) {
  const [start, setStart] = useState({ round: 0, values: emptyMoveForm() });
  const [lotsVersion, setLotsVersion] = useState(0);
  const noLocations = catalogue.locations.length === 0;
  const noProducts = catalogue.products.length === 0;
  return (
    <CardSection title="Record a move">
      {noProducts || noLocations ? (
        <p className="muted">
          {noProducts
            ? 'Add a product first: stock is kept per product.'
            : 'Stock needs a place: add a location first.'}
        </p>
      ) : (
        <>
          <MoveForm
            key={start.round}
            catalogue={catalogue}
            initial={start.values}
            lotsVersion={lotsVersion}
            onMoved={(_move, values) => {
              setStart((s) => ({
                round: s.round + 1,
                values: { ...values, quantity: '', unit_cost: '', reference: '' },
              }));
              onMoved();
            }}
          />
          {mayCreateLots ? (
            <details className="section">
              <summary>Register a new lot</summary>
              <LotForm
                catalogue={catalogue}
                productId={start.values.product_id}
                onCreated={() => setLotsVersion((v) => v + 1)}
              />
            </details>
          ) : null}
        </>
      )}
    </CardSection>
  );
}

/**
 * `/inventory` (issue 22): the stock by product, location and lot with
 * expiry warnings; the move form; the ledger; reservations; replenishment;
 * the locations. `role` decides which forms show (the server refuses the
 * calls either way): workers record moves and reservations, admins and
 * managers also add locations and set reorder rules.
 */
export function InventoryPage({ role }: { role: Role | null | undefined }) {
  const catalogue = useCatalogue();
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const mayRecord = canRecordStock(role);
  const mayManage = canManageInventory(role);

  return (
    <>
      <PageHeader
        title="Inventory"
        description="Stock by product, location and lot, every move in the ledger, and what is promised."
      />
      <nav aria-label="Sections of the inventory page">
        <ul className="page-links">
          <li>
            <a href="#stock">Stock</a>
          </li>
          {mayRecord ? (
            <li>
              <a href="#record-a-move">Record a move</a>
            </li>
          ) : null}
          <li>
            <a href="#ledger">Ledger</a>
          </li>
          <li>
            <a href="#reservations">Reservations</a>
          </li>
          <li>
            <a href="#replenishment">Replenishment</a>
          </li>
          <li>
            <a href="#locations">Locations</a>
          </li>
        </ul>
      </nav>
      <ApiResultView result={catalogue.result} onRetry={catalogue.reload}>
        {(c) => (
          <>
            <div id="stock">
              <StockSection catalogue={c} version={version} />
            </div>
            {mayRecord ? (
              <div id="record-a-move">
                <MoveSection catalogue={c} mayCreateLots={canCreateLots(role)} onMoved={changed} />
              </div>
            ) : null}
            <div id="ledger">
              <LedgerSection catalogue={c} version={version} />
            </div>
            <div id="reservations">
              <ReservationsSection
                catalogue={c}
                version={version}
                canRecord={mayRecord}
                onChanged={changed}
              />
            </div>
            <div id="replenishment">
              <ReplenishmentSection
                catalogue={c}
                version={version}
                canManage={mayManage}
                onChanged={changed}
              />
            </div>
            <div id="locations">
              <LocationsSection
                catalogue={c}
                canManage={mayManage}
                onAdded={catalogue.locationAdded}
              />
            </div>
          </>
        )}
      </ApiResultView>
    </>
  );
}
