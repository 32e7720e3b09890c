-- The brand's logo on the consumer's scan page (issue 21). The file is kept
-- by the storage layer under the tenant's own prefix
-- (`tenants/{tenant}/logos/{logo_id}.{logo_ext}`); only its id and type are
-- here. A new upload replaces it (a new id, so caches never show the old
-- one); removing it clears both columns.
ALTER TABLE org_settings
    ADD COLUMN logo_id  uuid,
    ADD COLUMN logo_ext text CHECK (logo_ext IN ('png', 'jpg', 'webp')),
    ADD CONSTRAINT org_settings_logo_whole CHECK ((logo_id IS NULL) = (logo_ext IS NULL));
