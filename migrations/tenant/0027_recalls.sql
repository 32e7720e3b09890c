-- Recalls (issue 23): a lot, and every lot made from it, recalled in one
-- request, with the shipments and customers it reached.
--
-- * `recalls`: who recalled which lot, when and why. `number` is what people
--   quote (RC-000042).
-- * `recall_lots`: every lot the recall covers: the lot itself (depth 0) and
--   the lots made from it at any depth (the downstream genealogy of
--   `lot_inputs`, 0023, as `trace::store::downstream` reads it), and whether
--   this recall changed its status (a lot recalled before stays recalled,
--   with no second history row).
-- * `recall_shipments`: what of those lots had left for a customer when the
--   recall was made (the `shipment_lots` of shipped or delivered
--   shipments), kept as it was then, so the recall, its answer and its CSV
--   read the same ever after.
-- * `recall_reservations`: the open stock reservations the recall released
--   (through `inventory::ledger::release`, as `DELETE
--   /api/stock-reservations/{id}` does).
--
-- A recall is a record of fact: all four tables are append-only
-- (`refuse_change()` of 0019). A lot is the root of at most one recall
-- (`recalls_lot_key`): a second recall of it is refused (409
-- `already_recalled`), and two at once queue on the lots' row locks, so
-- that one succeeds and the other is refused.

CREATE TABLE recalls (
    id              uuid PRIMARY KEY,
    number          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    lot_id          uuid NOT NULL REFERENCES lots (id),
    reason          text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    -- The account (platform.accounts(id), no foreign key by design) and its
    -- name at the time.
    created_by      uuid,
    created_by_name text NOT NULL CHECK (length(created_by_name) BETWEEN 1 AND 200),
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- The downstream walk stopped at its depth limit (trace::MAX_DEPTH)
    -- with lots beyond it, which this recall did not reach.
    truncated       boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX recalls_lot_key ON recalls (lot_id);
CREATE INDEX recalls_created_idx ON recalls (created_at DESC, id DESC);

CREATE TABLE recall_lots (
    recall_id      uuid NOT NULL REFERENCES recalls (id),
    lot_id         uuid NOT NULL REFERENCES lots (id),
    -- 0 for the recalled lot, n for a lot made from it n steps down.
    depth          smallint NOT NULL CHECK (depth >= 0),
    -- Its status before the recall.
    previous_status text NOT NULL,
    -- Whether this recall set it `recalled` (false: it was already).
    status_changed boolean NOT NULL,
    PRIMARY KEY (recall_id, lot_id)
);
CREATE INDEX recall_lots_lot_idx ON recall_lots (lot_id);

CREATE TABLE recall_shipments (
    recall_id   uuid NOT NULL REFERENCES recalls (id),
    shipment_id uuid NOT NULL REFERENCES shipments (id),
    lot_id      uuid NOT NULL REFERENCES lots (id),
    quantity    numeric(12, 3) NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (recall_id, shipment_id, lot_id)
);

CREATE TABLE recall_reservations (
    recall_id      uuid NOT NULL REFERENCES recalls (id),
    reservation_id uuid NOT NULL REFERENCES stock_reservations (id),
    PRIMARY KEY (recall_id, reservation_id)
);

CREATE TRIGGER recalls_append_only
    BEFORE UPDATE OR DELETE ON recalls
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recalls_not_truncated
    BEFORE TRUNCATE ON recalls
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_lots_append_only
    BEFORE UPDATE OR DELETE ON recall_lots
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_lots_not_truncated
    BEFORE TRUNCATE ON recall_lots
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_shipments_append_only
    BEFORE UPDATE OR DELETE ON recall_shipments
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_shipments_not_truncated
    BEFORE TRUNCATE ON recall_shipments
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_reservations_append_only
    BEFORE UPDATE OR DELETE ON recall_reservations
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER recall_reservations_not_truncated
    BEFORE TRUNCATE ON recall_reservations
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- The genealogy's walks start from one lot and follow `lot_inputs` (0023
-- indexes both directions); the receipts and shipments of the lots found
-- are read through `purchase_receipt_lines_lot_idx` and
-- `shipment_lots_lot_idx`.
