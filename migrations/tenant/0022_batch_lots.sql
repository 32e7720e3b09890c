-- A pharmaceutical client's batch is a lot of the one lot register (issue
-- 22, ADR 0019): linked, not merged.
--
-- * `batches` (0012) stays what a batch update assigned to codes: the
--   Schedule H2 data as the file gave it (dates, licence number), one row per
--   update and distinct batch data, kept as the codes' history.
-- * `batches.lot_id` names the lot of the register that batch is: the lot of
--   the product of its GTIN with its batch number. When a batch update is
--   applied, the job registers the lots its batches name that the register
--   does not have yet (with the first batch's dates) and links every batch to
--   its lot, in the update's one transaction. A lot's status (held,
--   recalled) then reaches the client's codes: the scan page reads the
--   status through this link.
-- * Existing batches are linked here: their lots are registered (released:
--   they are in use) with a first history row by the system, then linked.
--   (The audit rows of those registrations are this migration.)
-- * `lots (created_at DESC, id DESC)`: the register's list, newest first.

ALTER TABLE batches ADD COLUMN lot_id uuid REFERENCES lots (id);
CREATE INDEX batches_lot_idx ON batches (lot_id);
CREATE INDEX lots_created_idx ON lots (created_at DESC, id DESC);

-- The product of each batch's GTIN: the active one, else the newest.
CREATE TEMP TABLE batch_products AS
SELECT b.id AS batch_id, b.position, b.batch_number, b.manufactured_on, b.expires_on, p.id AS product_id
FROM batches b
CROSS JOIN LATERAL (
    SELECT id FROM products
    WHERE gtin = b.gtin
    ORDER BY archived_at IS NULL DESC, created_at DESC
    LIMIT 1
) p;

WITH wanted AS (
    SELECT DISTINCT ON (product_id, batch_number) product_id, batch_number, manufactured_on, expires_on
    FROM batch_products
    ORDER BY product_id, batch_number, batch_id
), added AS (
    INSERT INTO lots (id, product_id, number, manufactured_on, expires_on, status)
    SELECT gen_random_uuid(), product_id, batch_number, manufactured_on, expires_on, 'released'
    FROM wanted
    ON CONFLICT (product_id, number) DO NOTHING
    RETURNING id
)
INSERT INTO lot_status_changes (lot_id, from_status, to_status, reason, changed_by, changed_by_name)
SELECT id, NULL, 'released', 'Registered from a batch update applied before the lot register', NULL, 'brandops'
FROM added;

UPDATE batches b SET lot_id = l.id
FROM batch_products bp
JOIN lots l ON l.product_id = bp.product_id AND l.number = bp.batch_number
WHERE bp.batch_id = b.id;

-- Every tenant is migrated in one transaction: the next one makes its own.
DROP TABLE batch_products;
