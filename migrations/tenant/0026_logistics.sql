-- Logistics (issue 23): what a shipment carries, how it is packed, and the
-- SSCCs of its packages. Extends the foundation's `shipments` and
-- `shipment_lots` (0023).
--
-- * `shipment_lines`: what was asked for, line by line: a product and a
--   quantity, the lot when one was named, and the package it goes in. Each
--   line holds one stock reservation (`stock_reservations`, 0020) made
--   when the shipment is created: the lots are picked then, first expiry
--   first out (released, unexpired lots at the shipment's location), and
--   the stock is promised, so two drafts can never promise the same units.
--   The reservation's lines are the picks. Shipping consumes them (the
--   reservation is released and the same quantities leave through the
--   ledger's shipment moves, in one transaction); cancelling a draft
--   releases them.
-- * `shipment_packages`: one row per package when the shipment ships, with
--   its SSCC (AI 00). Append-only. The SSCC is unique per tenant (and the
--   index makes that the database's rule too).
-- * `sscc_counters`: the next serial reference per company prefix, taken
--   by one upsert in the ship's transaction, so parallel shipments queue on
--   the row and never get the same number. A new prefix starts its own
--   counter (its SSCCs differ in the prefix digits anyway).

ALTER TABLE shipments
    ADD COLUMN shipped_by   uuid,
    ADD COLUMN delivered_by uuid,
    ADD COLUMN cancelled_by uuid,
    ADD COLUMN cancelled_at timestamptz,
    ADD CONSTRAINT shipments_cancelled_check
        CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL));

CREATE TABLE shipment_lines (
    shipment_id    uuid NOT NULL REFERENCES shipments (id),
    position       integer NOT NULL CHECK (position >= 1),
    product_id     uuid NOT NULL REFERENCES products (id),
    quantity       numeric(12, 3) NOT NULL CHECK (quantity > 0),
    -- The lot the line asked for; NULL when the server picked (FEFO).
    lot_id         uuid REFERENCES lots (id),
    -- The package it is packed in (1 to 99); a shipment's packages are the
    -- distinct numbers of its lines.
    package        integer NOT NULL DEFAULT 1 CHECK (package BETWEEN 1 AND 99),
    reservation_id uuid NOT NULL UNIQUE REFERENCES stock_reservations (id),
    PRIMARY KEY (shipment_id, position)
);
CREATE INDEX shipment_lines_product_idx ON shipment_lines (product_id);

CREATE TABLE shipment_packages (
    shipment_id uuid NOT NULL REFERENCES shipments (id),
    package     integer NOT NULL CHECK (package BETWEEN 1 AND 99),
    sscc        text NOT NULL CHECK (sscc ~ '^[0-9]{18}$'),
    PRIMARY KEY (shipment_id, package)
);
CREATE UNIQUE INDEX shipment_packages_sscc_key ON shipment_packages (sscc);
CREATE TRIGGER shipment_packages_append_only
    BEFORE UPDATE OR DELETE ON shipment_packages
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER shipment_packages_not_truncated
    BEFORE TRUNCATE ON shipment_packages
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE sscc_counters (
    company_prefix text PRIMARY KEY CHECK (company_prefix ~ '^[0-9]{6,12}$'),
    -- The next serial to give (0-based, before the extension digit is
    -- split off): the prefix's capacity is 10^(17 - length(prefix)).
    next_serial    bigint NOT NULL CHECK (next_serial >= 0)
);
