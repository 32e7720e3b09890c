-- A tenant's products (issue 8). `products` is the spec's Product (id,
-- product_name, skuid, image_urls, metadata, product_description,
-- sample_qr_id) plus its GTIN (stored as GTIN-14; also claimed in the
-- platform's GTIN registry, so no other tenant can use it) and a category.
-- Deleting a product archives it: its codes and scans will keep pointing at
-- it, and its GTIN stays the tenant's.

CREATE TABLE products (
    id                  uuid PRIMARY KEY,
    product_name        text NOT NULL CHECK (length(product_name) BETWEEN 1 AND 200),
    skuid               text NOT NULL CHECK (skuid ~ '^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$'),
    gtin                text NOT NULL CHECK (gtin ~ '^[0-9]{14}$'),
    category            text NOT NULL DEFAULT '' CHECK (length(category) <= 100),
    product_description text NOT NULL DEFAULT '' CHECK (length(product_description) <= 5000),
    metadata            jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    image_urls          text[] NOT NULL DEFAULT '{}',
    sample_qr_id        text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    created_by          uuid,
    updated_at          timestamptz NOT NULL DEFAULT now(),
    archived_at         timestamptz
);
-- SKU ids are unique in the tenant, case-insensitively, archived ones included.
CREATE UNIQUE INDEX products_skuid_key ON products (lower(skuid));
-- One product per GTIN.
CREATE UNIQUE INDEX products_gtin_key ON products (gtin);
-- The list: active products, newest first.
CREATE INDEX products_active_idx ON products (created_at DESC) WHERE archived_at IS NULL;
