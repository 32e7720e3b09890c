-- Inventory (issue 22, ADR 0020): where stock is, what moved, and what is
-- promised. The promise: no oversell, no negative stock and no lost move,
-- under any concurrency.
--
-- * `locations`: a tree (warehouse > zone > bin, and quarantine and scrap
--   areas); codes unique per organisation, whatever their case.
-- * `stock_moves`: the ledger. Append-only (the database refuses UPDATE,
--   DELETE and TRUNCATE): a mistake is corrected by a reverse move. A move
--   with no `from` is a receipt (it carries its unit cost and currency, which
--   the valuation reads); one with no `to` leaves the stock.
-- * `stock_balances`: on hand and reserved per (product, location, lot),
--   changed in the move's transaction by one conditional statement each
--   (`... WHERE on_hand - reserved >= $q`); never computed from the ledger.
--   The CHECKs are the last line: a balance can never be negative, and never
--   more reserved than on hand.
-- * `stock_reservations` and their lines: stock promised (first expiry
--   first out), taken from the balances' `reserved`.
-- * `reorder_rules`: one per product, for its replenishment.
-- * `idempotency_keys`: the first answer of a POST sent with an
--   `Idempotency-Key`, so a retry answers it again without moving twice.

CREATE TABLE locations (
    id          uuid PRIMARY KEY,
    code        text NOT NULL CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$'),
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    kind        text NOT NULL
                CHECK (kind IN ('warehouse', 'zone', 'bin', 'quarantine', 'scrap')),
    -- Locations are never changed, so a parent made before its child is a
    -- tree without cycles.
    parent_id   uuid REFERENCES locations (id),
    created_by  uuid,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX locations_code_key ON locations (lower(code));
CREATE INDEX locations_parent_idx ON locations (parent_id);

CREATE TABLE stock_moves (
    -- The ledger's order: newest first is `seq DESC`, and the keyset cursor.
    seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id               uuid NOT NULL UNIQUE,
    product_id       uuid NOT NULL REFERENCES products (id),
    lot_id           uuid NOT NULL REFERENCES lots (id),
    quantity         numeric(12, 3) NOT NULL CHECK (quantity > 0),
    from_location_id uuid REFERENCES locations (id),
    to_location_id   uuid REFERENCES locations (id),
    reason           text NOT NULL CHECK (reason IN ('receipt', 'transfer', 'adjustment',
                         'consumption', 'shipment', 'scrap', 'return')),
    unit_cost        numeric(18, 6) CHECK (unit_cost >= 0),
    currency         text CHECK (currency ~ '^[A-Z]{3}$'),
    reference        text CHECK (length(reference) BETWEEN 1 AND 200),
    created_by       uuid,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (from_location_id IS NOT NULL OR to_location_id IS NOT NULL),
    CHECK (from_location_id IS DISTINCT FROM to_location_id),
    -- A receipt (nothing it came from) carries its cost; no other move does.
    CHECK ((from_location_id IS NULL) = (unit_cost IS NOT NULL AND currency IS NOT NULL)),
    CHECK ((unit_cost IS NULL) = (currency IS NULL))
);
CREATE INDEX stock_moves_product_idx ON stock_moves (product_id, seq DESC);
CREATE INDEX stock_moves_lot_idx ON stock_moves (lot_id, seq DESC);
CREATE INDEX stock_moves_from_idx ON stock_moves (from_location_id, seq DESC)
    WHERE from_location_id IS NOT NULL;
CREATE INDEX stock_moves_to_idx ON stock_moves (to_location_id, seq DESC)
    WHERE to_location_id IS NOT NULL;
CREATE INDEX stock_moves_created_idx ON stock_moves (created_at);
-- The valuation's walk over a product's receipts, newest first.
CREATE INDEX stock_moves_receipts_idx ON stock_moves (product_id, seq DESC)
    INCLUDE (quantity, unit_cost, currency) WHERE from_location_id IS NULL;

CREATE TRIGGER stock_moves_append_only
    BEFORE UPDATE OR DELETE ON stock_moves
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER stock_moves_not_truncated
    BEFORE TRUNCATE ON stock_moves
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE stock_balances (
    product_id  uuid NOT NULL REFERENCES products (id),
    location_id uuid NOT NULL REFERENCES locations (id),
    lot_id      uuid NOT NULL REFERENCES lots (id),
    on_hand     numeric(18, 3) NOT NULL CHECK (on_hand >= 0),
    reserved    numeric(18, 3) NOT NULL DEFAULT 0 CHECK (reserved >= 0 AND reserved <= on_hand),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (product_id, location_id, lot_id)
);
CREATE INDEX stock_balances_location_idx ON stock_balances (location_id);
CREATE INDEX stock_balances_lot_idx ON stock_balances (lot_id);

CREATE TABLE stock_reservations (
    id          uuid PRIMARY KEY,
    product_id  uuid NOT NULL REFERENCES products (id),
    -- The location asked for (its balances only); NULL for anywhere.
    location_id uuid REFERENCES locations (id),
    quantity    numeric(12, 3) NOT NULL CHECK (quantity > 0),
    reference   text NOT NULL CHECK (length(reference) BETWEEN 1 AND 200),
    status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'released')),
    created_by  uuid,
    created_at  timestamptz NOT NULL DEFAULT now(),
    released_by uuid,
    released_at timestamptz,
    CHECK ((status = 'released') = (released_at IS NOT NULL))
);
CREATE INDEX stock_reservations_product_idx ON stock_reservations (product_id, created_at DESC);
CREATE INDEX stock_reservations_created_idx ON stock_reservations (created_at DESC);

CREATE TABLE stock_reservation_lines (
    reservation_id uuid NOT NULL REFERENCES stock_reservations (id),
    location_id    uuid NOT NULL REFERENCES locations (id),
    lot_id         uuid NOT NULL REFERENCES lots (id),
    quantity       numeric(12, 3) NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (reservation_id, location_id, lot_id)
);

CREATE TABLE reorder_rules (
    product_id   uuid PRIMARY KEY REFERENCES products (id),
    location_id  uuid NOT NULL REFERENCES locations (id),
    min_quantity numeric(12, 3) NOT NULL CHECK (min_quantity >= 0),
    max_quantity numeric(12, 3) NOT NULL CHECK (max_quantity >= min_quantity),
    updated_by   uuid,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE idempotency_keys (
    -- The operation (`createStockMove`) and the key the caller sent.
    operation    text NOT NULL,
    key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- A digest of the request: the same key with another request is refused.
    request_hash text NOT NULL,
    status       smallint NOT NULL,
    response     jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (operation, key)
);
