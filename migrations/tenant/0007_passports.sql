-- Digital product passports (issue 9; ADR 0015): the EU ESPR Annex III data
-- of a product, and of a lot where it differs, kept as versions that are
-- never changed.
--
-- * `passports` is one row per passport: a product's own (`lot = ''`) or a
--   lot's (`lot` its GS1 AI 10 number), with its current version and that
--   version's completeness, so the /DPP list reads one row per product.
--   Saving a passport upserts this row first (`current_version + 1`): the
--   upsert locks the row until the transaction ends, so parallel saves of
--   one passport queue here and each takes the next number.
-- * `passport_versions` keeps every version: the whole document (the API's
--   JSON: sections, each with its visibility), when and by whom (the
--   account's id) it was saved. The primary key (product, lot, version)
--   is the backstop against two versions with one number. A trigger
--   refuses UPDATE, DELETE and TRUNCATE: an earlier version stays what it
--   was when it was saved.
--
-- A lot's passport needs no row in `lots`: a brand may prepare it before it
-- generates the lot's codes. It replaces the product's passport for that lot
-- (a whole document, not a patch).

CREATE TABLE passports (
    product_id      uuid NOT NULL REFERENCES products (id),
    -- '' for the product's own passport; else GS1 AI 10 (character set 82).
    lot             text NOT NULL DEFAULT ''
                    CHECK (lot = '' OR lot ~ '^[!"%&''()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$'),
    current_version integer NOT NULL CHECK (current_version >= 1),
    completeness    smallint NOT NULL CHECK (completeness BETWEEN 0 AND 100),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (product_id, lot)
);

CREATE TABLE passport_versions (
    product_id   uuid NOT NULL,
    lot          text NOT NULL,
    version      integer NOT NULL CHECK (version >= 1),
    document     jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object'),
    completeness smallint NOT NULL CHECK (completeness BETWEEN 0 AND 100),
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   uuid NOT NULL,
    PRIMARY KEY (product_id, lot, version),
    FOREIGN KEY (product_id, lot) REFERENCES passports (product_id, lot)
);

-- Versions are written once.
CREATE FUNCTION passport_versions_are_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'passport versions are never changed'
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER passport_versions_immutable
    BEFORE UPDATE OR DELETE ON passport_versions
    FOR EACH ROW EXECUTE FUNCTION passport_versions_are_immutable();

CREATE TRIGGER passport_versions_not_truncated
    BEFORE TRUNCATE ON passport_versions
    FOR EACH STATEMENT EXECUTE FUNCTION passport_versions_are_immutable();
