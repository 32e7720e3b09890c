-- Manufacturing (issue 23): versioned bills of materials and manufacturing
-- orders that consume component lots and produce an output lot.
--
-- * `boms`, `bom_components`: what a product is made of, version by
--   version. A new version is a new row (the next number for the product,
--   taken under a lock on `boms`, which also keeps two parallel creates
--   from forming a component cycle together); versions are never changed or
--   deleted (the `refuse_change()` triggers of 0019), so an order made on a
--   version can always be read back as it was made.
-- * `manufacturing_orders`: a product to make, on a pinned BOM version, at
--   a location, into a named output lot. `planned -> in_progress ->
--   completed`, or `cancelled` before completion. Completing it writes the
--   consumption moves and the production move (through the ledger, 0020),
--   the output lot (the register, 0019), the `lot_inputs` rows (0023), an
--   EPCIS TransformationEvent (0008) and, when asked, a code job, all in
--   one transaction; the order keeps what it produced and at what cost.

CREATE TABLE boms (
    id              uuid PRIMARY KEY,
    product_id      uuid NOT NULL REFERENCES products (id),
    version         integer NOT NULL CHECK (version >= 1),
    -- How much of the product one run of the list makes.
    output_quantity numeric(12, 3) NOT NULL CHECK (output_quantity > 0),
    created_by      uuid,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (product_id, version)
);

CREATE TABLE bom_components (
    bom_id     uuid NOT NULL REFERENCES boms (id),
    position   integer NOT NULL CHECK (position >= 1),
    product_id uuid NOT NULL REFERENCES products (id),
    quantity   numeric(12, 3) NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (bom_id, position),
    UNIQUE (bom_id, product_id)
);
CREATE INDEX bom_components_product_idx ON bom_components (product_id);

CREATE TRIGGER boms_append_only
    BEFORE UPDATE OR DELETE ON boms
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER boms_not_truncated
    BEFORE TRUNCATE ON boms
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER bom_components_append_only
    BEFORE UPDATE OR DELETE ON bom_components
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER bom_components_not_truncated
    BEFORE TRUNCATE ON bom_components
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE manufacturing_orders (
    id                uuid PRIMARY KEY,
    -- The number people quote (MO-000042), in order of creation.
    number            bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    product_id        uuid NOT NULL REFERENCES products (id),
    -- The pinned BOM version.
    bom_id            uuid NOT NULL REFERENCES boms (id),
    quantity          numeric(12, 3) NOT NULL CHECK (quantity > 0),
    location_id       uuid NOT NULL REFERENCES locations (id),
    output_lot_number text NOT NULL
                      CHECK (output_lot_number ~ '^[!"%&''()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$'),
    expires_on        date,
    status            text NOT NULL DEFAULT 'planned'
                      CHECK (status IN ('planned', 'in_progress', 'completed', 'cancelled')),
    -- What completion produced, and at what unit cost (the consumed
    -- components' FIFO cost over the quantity produced).
    produced_quantity numeric(12, 3) CHECK (produced_quantity > 0),
    output_lot_id     uuid REFERENCES lots (id),
    unit_cost         numeric(18, 6) CHECK (unit_cost >= 0),
    currency          text CHECK (currency ~ '^[A-Z]{3}$'),
    code_job_id       uuid REFERENCES code_jobs (id),
    epcis_event_id    text,
    created_by        uuid,
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    completed_at      timestamptz,
    cancelled_at      timestamptz,
    CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
    CHECK ((status = 'completed') = (output_lot_id IS NOT NULL)),
    CHECK ((status = 'completed') = (produced_quantity IS NOT NULL)),
    CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
    CHECK ((unit_cost IS NULL) = (currency IS NULL))
);
CREATE INDEX manufacturing_orders_created_idx ON manufacturing_orders (created_at DESC, id DESC);
CREATE INDEX manufacturing_orders_product_idx ON manufacturing_orders (product_id);
CREATE INDEX manufacturing_orders_output_lot_idx ON manufacturing_orders (output_lot_id)
    WHERE output_lot_id IS NOT NULL;

ALTER TABLE lot_inputs
    ADD CONSTRAINT lot_inputs_manufacturing_order_fkey
    FOREIGN KEY (manufacturing_order_id) REFERENCES manufacturing_orders (id);
