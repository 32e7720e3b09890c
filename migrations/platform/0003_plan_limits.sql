-- A tenant's plan limits besides its user limit, set by platform admins when
-- onboarding it and later (PATCH /api/platform/tenants/{client_id}):
--   product_limit: how many products it may have (the spec's max_products);
--   code_quota:    how many serialized codes it may generate in all (the
--                  spec's qr_codes_remaining is this less those generated).
-- Lowering a limit below current use is allowed: it blocks new additions and
-- deletes nothing.
ALTER TABLE platform.tenants
    ADD COLUMN product_limit integer NOT NULL DEFAULT 100
        CHECK (product_limit BETWEEN 0 AND 1000000),
    ADD COLUMN code_quota bigint NOT NULL DEFAULT 1000000
        CHECK (code_quota BETWEEN 0 AND 10000000000);
