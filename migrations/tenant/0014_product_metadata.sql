-- A product's `metadata` (issue 19). The spec's product shape has it; the
-- typed `attributes` (0005) hold the data, and `metadata` stayed '{}' on
-- every row since nothing wrote it. It becomes the attributes as one object,
-- name → value (a number stays a number, a boolean a boolean, a date its
-- ISO text), kept by the database: a generated column cannot disagree with
-- the list it is made from, whichever statement changes the attributes.
-- Dropping the old column loses nothing (it was '{}' everywhere).

-- The attributes list as an object. Immutable (its result depends on its
-- argument only), as a generated column requires; its body is parsed now,
-- so it names nothing that the search path could change later. Names are
-- unique in a product, whatever the case, so no key is given twice.
CREATE FUNCTION product_metadata(attributes jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
    SELECT coalesce(jsonb_object_agg(a ->> 'name', a -> 'value'), '{}'::jsonb)
    FROM jsonb_array_elements(attributes) AS a
);

ALTER TABLE products DROP COLUMN metadata;
ALTER TABLE products
    ADD COLUMN metadata jsonb NOT NULL GENERATED ALWAYS AS (product_metadata(attributes)) STORED;
