-- The supply chain's shared core (issue 23): who the organisation buys from
-- and sells to, and the records that trace a lot from a supplier's receipt,
-- through the lots made from it, to a customer's shipment. Procurement,
-- manufacturing and logistics each extend their own tables in their own
-- migrations; the genealogy and the recall read these, so their shape is
-- fixed here once.
--
-- * `org_settings.gs1_company_prefix`: the organisation's GS1 company
--   prefix (6 to 12 digits); the SSCCs of its shipments are built from it.
-- * `suppliers`, `customers`: parties. A GLN (13 digits, its check digit
--   verified by the server) is unique per organisation when given.
-- * `purchase_orders`, `purchase_order_lines`: what was ordered, at what
--   price (money as `numeric`, never a float). `received_quantity` is the
--   running total of the line's receipts, raised by one conditional UPDATE
--   in the receipt's transaction, so parallel receipts cannot over-receive.
-- * `purchase_receipts`, `purchase_receipt_lines`: what arrived, into which
--   lot, by which stock move (the receipt move of the ledger, 0020).
-- * `lot_inputs`: the genealogy's edges. Which input lot, and how much of
--   it, went into an output lot, by which manufacturing order. Append-only.
-- * `shipments`, `shipment_lots`: what left for a customer, lot by lot, as
--   shipped (`shipment_lots` is written when the shipment ships).

ALTER TABLE org_settings
    ADD COLUMN gs1_company_prefix text CHECK (gs1_company_prefix ~ '^[0-9]{6,12}$');

CREATE TABLE suppliers (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    gln         text CHECK (gln ~ '^[0-9]{13}$'),
    email       text CHECK (length(email) BETWEEN 3 AND 254),
    -- ISO 3166-1 alpha-2.
    country     text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    created_by  uuid,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX suppliers_gln_key ON suppliers (gln) WHERE gln IS NOT NULL;
CREATE INDEX suppliers_name_idx ON suppliers (lower(name), id);

CREATE TABLE customers (
    id             uuid PRIMARY KEY,
    name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    gln            text CHECK (gln ~ '^[0-9]{13}$'),
    email          text CHECK (length(email) BETWEEN 3 AND 254),
    country        text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    -- The price lists' customer group (issue 24), e.g. `wholesale`.
    customer_group text CHECK (customer_group ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
    created_by     uuid,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_gln_key ON customers (gln) WHERE gln IS NOT NULL;
CREATE INDEX customers_name_idx ON customers (lower(name), id);

CREATE TABLE purchase_orders (
    id           uuid PRIMARY KEY,
    -- The number people quote (PO-000042), in order of creation.
    number       bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    supplier_id  uuid NOT NULL REFERENCES suppliers (id),
    status       text NOT NULL DEFAULT 'draft'
                 CHECK (status IN ('draft', 'confirmed', 'partially_received', 'received', 'cancelled')),
    expected_on  date NOT NULL,
    currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    created_by   uuid,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_orders_supplier_idx ON purchase_orders (supplier_id);
CREATE INDEX purchase_orders_created_idx ON purchase_orders (created_at DESC, id DESC);

CREATE TABLE purchase_order_lines (
    id                uuid PRIMARY KEY,
    purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id),
    position          integer NOT NULL CHECK (position >= 1),
    product_id        uuid NOT NULL REFERENCES products (id),
    quantity          numeric(12, 3) NOT NULL CHECK (quantity > 0),
    unit_price        numeric(18, 6) NOT NULL CHECK (unit_price >= 0),
    received_quantity numeric(12, 3) NOT NULL DEFAULT 0 CHECK (received_quantity >= 0),
    UNIQUE (purchase_order_id, position)
);
CREATE INDEX purchase_order_lines_product_idx ON purchase_order_lines (product_id);

CREATE TABLE purchase_receipts (
    id                uuid PRIMARY KEY,
    purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id),
    location_id       uuid NOT NULL REFERENCES locations (id),
    received_by       uuid,
    received_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_receipts_order_idx ON purchase_receipts (purchase_order_id);

CREATE TABLE purchase_receipt_lines (
    receipt_id uuid NOT NULL REFERENCES purchase_receipts (id),
    line_id    uuid NOT NULL REFERENCES purchase_order_lines (id),
    lot_id     uuid NOT NULL REFERENCES lots (id),
    quantity   numeric(12, 3) NOT NULL CHECK (quantity > 0),
    -- The receipt move of the ledger (stock_moves.id).
    move_id    uuid NOT NULL REFERENCES stock_moves (id),
    PRIMARY KEY (receipt_id, line_id)
);
CREATE INDEX purchase_receipt_lines_lot_idx ON purchase_receipt_lines (lot_id);
CREATE INDEX purchase_receipt_lines_line_idx ON purchase_receipt_lines (line_id);

CREATE TABLE lot_inputs (
    -- The manufacturing order that consumed the input (its table and the
    -- foreign key come with manufacturing's migration).
    manufacturing_order_id uuid NOT NULL,
    output_lot_id          uuid NOT NULL REFERENCES lots (id),
    input_lot_id           uuid NOT NULL REFERENCES lots (id),
    quantity               numeric(12, 3) NOT NULL CHECK (quantity > 0),
    created_at             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (manufacturing_order_id, input_lot_id),
    CHECK (output_lot_id <> input_lot_id)
);
CREATE INDEX lot_inputs_output_idx ON lot_inputs (output_lot_id, input_lot_id);
CREATE INDEX lot_inputs_input_idx ON lot_inputs (input_lot_id, output_lot_id);
CREATE TRIGGER lot_inputs_append_only
    BEFORE UPDATE OR DELETE ON lot_inputs
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER lot_inputs_not_truncated
    BEFORE TRUNCATE ON lot_inputs
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE shipments (
    id               uuid PRIMARY KEY,
    -- The number people quote (SH-000042), in order of creation.
    number           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    customer_id      uuid NOT NULL REFERENCES customers (id),
    from_location_id uuid NOT NULL REFERENCES locations (id),
    -- The sales order it fulfils (issue 24 adds the foreign key).
    sales_order_id   uuid,
    status           text NOT NULL DEFAULT 'draft'
                     CHECK (status IN ('draft', 'shipped', 'delivered', 'cancelled')),
    created_by       uuid,
    created_at       timestamptz NOT NULL DEFAULT now(),
    shipped_at       timestamptz,
    delivered_at     timestamptz,
    CHECK ((status IN ('shipped', 'delivered')) = (shipped_at IS NOT NULL)),
    CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
);
CREATE INDEX shipments_customer_idx ON shipments (customer_id);
CREATE INDEX shipments_created_idx ON shipments (created_at DESC, id DESC);

CREATE TABLE shipment_lots (
    shipment_id uuid NOT NULL REFERENCES shipments (id),
    product_id  uuid NOT NULL REFERENCES products (id),
    lot_id      uuid NOT NULL REFERENCES lots (id),
    quantity    numeric(12, 3) NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (shipment_id, lot_id)
);
CREATE INDEX shipment_lots_lot_idx ON shipment_lots (lot_id);
