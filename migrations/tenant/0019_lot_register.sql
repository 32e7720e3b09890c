-- The one lot register (issue 22). `lots` (0003: product, GS1 AI 10 number,
-- manufacture and expiry dates) is the register every module refers to:
-- code jobs, stock, inspections, and later receipts, manufacturing orders,
-- shipments and recalls. A pharmaceutical client's batch is a lot too
-- (ADR 0019).
--
-- * `lots.status`: quarantine, released, held, rejected or recalled. Only a
--   released, unexpired lot can be reserved, picked, consumed or shipped.
--   Lots that exist already (made by code jobs) are in use: released.
-- * `lot_status_changes`: who changed a lot's status, when and why; written
--   in the transaction that changes it, and never changed afterwards.
-- * `products.requires_inspection`: its received and manufactured lots
--   arrive in quarantine. `products.unit`: the unit its quantities are
--   counted in (stock quantities have at most 3 decimal places).
-- * `refuse_change()`: the trigger function of every append-only table
--   (this file's history, the stock ledger, ...).

CREATE FUNCTION refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: its rows are never changed or deleted', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;

ALTER TABLE lots
    ADD COLUMN status text NOT NULL DEFAULT 'released'
        CHECK (status IN ('quarantine', 'released', 'held', 'rejected', 'recalled')),
    ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN created_by uuid;
CREATE INDEX lots_status_idx ON lots (status, product_id);
CREATE INDEX lots_expiry_idx ON lots (product_id, expires_on NULLS LAST, number);

CREATE TABLE lot_status_changes (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    lot_id          uuid NOT NULL REFERENCES lots (id),
    -- NULL for the lot's first status, when it was registered.
    from_status     text,
    to_status       text NOT NULL
                    CHECK (to_status IN ('quarantine', 'released', 'held', 'rejected', 'recalled')),
    reason          text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    -- The account (platform.accounts(id), no foreign key by design) and its
    -- name at the time; NULL for the system (a job).
    changed_by      uuid,
    changed_by_name text NOT NULL CHECK (length(changed_by_name) BETWEEN 1 AND 200),
    changed_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lot_status_changes_lot_idx ON lot_status_changes (lot_id, id);

CREATE TRIGGER lot_status_changes_append_only
    BEFORE UPDATE OR DELETE ON lot_status_changes
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER lot_status_changes_not_truncated
    BEFORE TRUNCATE ON lot_status_changes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

ALTER TABLE products
    ADD COLUMN requires_inspection boolean NOT NULL DEFAULT false,
    ADD COLUMN unit text NOT NULL DEFAULT 'each'
        CHECK (unit ~ '^[a-z][a-z0-9_]{0,15}$');
