-- Procurement (issue 23): the purchase orders' state times, and supplier
-- bills with their three-way match (order, receipt, bill).
--
-- * `purchase_orders.confirmed_at`, `cancelled_at`: when the order was
--   confirmed or cancelled (the status itself is 0023's column; the server
--   moves it, one conditional step at a time).
-- * `supplier_bills`: a supplier's invoice against one purchase order. Its
--   number is unique per supplier, whatever its case. `match` and
--   `mismatches` are the three-way match as computed when the bill was
--   recorded (what was received and billed before it, at the order's
--   prices): a fact about that moment, never recomputed. A bill is
--   `pending` until approved; a mismatched bill is approved only by an
--   admin, with the reason kept in `approval_reason`.
-- * `supplier_bill_lines`: what the bill charges per order line. Every
--   bill's lines count as billed, whatever its match or approval: the
--   supplier has claimed them.

ALTER TABLE purchase_orders
    ADD COLUMN confirmed_at timestamptz,
    ADD COLUMN cancelled_at timestamptz,
    ADD CONSTRAINT purchase_orders_cancelled_at
        CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL));

CREATE TABLE supplier_bills (
    id                uuid PRIMARY KEY,
    supplier_id       uuid NOT NULL REFERENCES suppliers (id),
    purchase_order_id uuid NOT NULL REFERENCES purchase_orders (id),
    number            text NOT NULL CHECK (length(number) BETWEEN 1 AND 200),
    match             text NOT NULL CHECK (match IN ('matched', 'mismatch')),
    -- [{line_id, reason, expected, billed}], decimal strings.
    mismatches        jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(mismatches) = 'array'),
    status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved')),
    approved_by       uuid,
    approved_at       timestamptz,
    approval_reason   text CHECK (length(approval_reason) BETWEEN 1 AND 200),
    created_by        uuid,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'approved') = (approved_at IS NOT NULL)),
    CHECK ((match = 'matched') = (mismatches = '[]'::jsonb))
);
CREATE UNIQUE INDEX supplier_bills_number_key ON supplier_bills (supplier_id, lower(number));
CREATE INDEX supplier_bills_order_idx ON supplier_bills (purchase_order_id);
CREATE INDEX supplier_bills_created_idx ON supplier_bills (created_at DESC, id DESC);

CREATE TABLE supplier_bill_lines (
    bill_id    uuid NOT NULL REFERENCES supplier_bills (id),
    line_id    uuid NOT NULL REFERENCES purchase_order_lines (id),
    quantity   numeric(12, 3) NOT NULL CHECK (quantity > 0),
    unit_price numeric(18, 6) NOT NULL CHECK (unit_price >= 0),
    PRIMARY KEY (bill_id, line_id)
);
CREATE INDEX supplier_bill_lines_line_idx ON supplier_bill_lines (line_id);
