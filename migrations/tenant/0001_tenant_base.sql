-- Tenant schema, applied to every tenant schema (brand_acme, client_a, ...).
--
-- The migration runner sets a transaction-local search_path to the tenant
-- schema, so names here are unqualified. Every tenant schema must end up with
-- exactly the same shape: a test diffs information_schema.columns across them.
-- Nothing here may reference another schema (keeps Citus schema-based sharding
-- possible, see ARCHITECTURE §4).

-- One row: the organisation's own editable settings.
CREATE TABLE org_settings (
    id            boolean PRIMARY KEY DEFAULT true CHECK (id),
    display_name  text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    updated_by    uuid
);

-- Personal preferences of the tenant's accounts (the /Settings page).
-- account_id refers to platform.accounts(id); no foreign key, by design, so the
-- tenant schema stays self-contained.
CREATE TABLE user_preferences (
    account_id    uuid PRIMARY KEY,
    theme         text NOT NULL DEFAULT 'system' CHECK (theme IN ('light', 'dark', 'system')),
    landing_page  text NOT NULL DEFAULT '/' CHECK (landing_page ~ '^/[A-Za-z0-9_/-]{0,200}$'),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
