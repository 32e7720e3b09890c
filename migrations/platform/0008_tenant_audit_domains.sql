-- Every domain records its own actions under its own prefix (issue 19).
--
-- Until now `platform.tenant_audit` (0002) let a tenant record only
-- `organisation.*` actions, so every domain wrote under that prefix
-- (`organisation.passport_saved`, `organisation.batch_update_applied`, …)
-- and the log could not say which domain acted. From this migration an
-- action a tenant records is `{prefix}.{what}`, and its prefix must be one
-- of the domains listed in `platform.tenant_audit_domains`.
--
-- Why a table and not a pattern or a list inside the function: a pattern
-- alone (`^[a-z_]+\.[a-z_]+$`) would let a tenant's connection record
-- actions the platform records itself (`user.add`, `tenant.create`,
-- `auth.login`) and make them look like the platform's; a list inside the
-- function would make every new domain copy the whole function into its
-- migration. With the table, a new domain's migration is one line,
--     INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES ('widget', 'widgets');
-- and the function never changes. Tenant roles have no privilege on the
-- table (they reach the platform schema only through `tenant_*` functions);
-- the platform role may change it as it may every platform table, which
-- gives it nothing new: it writes `platform.audit_log` directly anyway.
-- The prefixes of the platform's own actions can never be listed.
--
-- Existing rows keep the action names they were written with
-- (`organisation.company_added`, `organisation.review_hidden`,
-- `organisation.review_shown`, `organisation.scan_rules`,
-- `organisation.batch_update_applied`, `organisation.passport_saved`): the
-- log records what was written at the time, and nothing rewrites it. A
-- reader looking for a domain's history before this migration also looks
-- for the old name. From now on they are `company.added`, `review.hidden`,
-- `review.shown`, `scan.settings_changed`, `batch_update.applied` and
-- `passport.saved`; `organisation.rename` stays as it was.

CREATE TABLE platform.tenant_audit_domains (
    -- The action prefix, the part before the dot.
    prefix text PRIMARY KEY
        CHECK (prefix ~ '^[a-z][a-z_]{0,39}$')
        CHECK (prefix NOT IN ('auth', 'platform_admin', 'tenant', 'user')),
    -- The module of `backend/src` that records under it.
    domain text NOT NULL CHECK (domain ~ '^[a-z][a-z_]{0,39}$')
);

INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES
    ('organisation', 'organisation'),
    ('company', 'companies'),
    ('review', 'reviews'),
    ('scan', 'scans'),
    ('batch_update', 'batch_updates'),
    ('passport', 'passports');

-- As in 0002, but the action's prefix is any listed domain's. Raises 22023
-- (invalid_parameter_value) for another or a malformed action: the server
-- only records its own constant names, so this is a bug or an injected call.
CREATE OR REPLACE FUNCTION platform.tenant_audit(
    p_action text, p_target text, p_detail jsonb, p_actor uuid, p_ip text
)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
    actor_email text;
BEGIN
    t := platform.caller_tenant(false);
    actor_email := platform.caller_actor(t.id, p_actor);
    IF p_action IS NULL
       OR p_action !~ '^[a-z][a-z_]{0,39}\.[a-z_]{1,40}$'
       OR NOT EXISTS (SELECT 1 FROM platform.tenant_audit_domains d
                      WHERE d.prefix = split_part(p_action, '.', 1)) THEN
        RAISE EXCEPTION 'a tenant may not record the action %', p_action
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO platform.audit_log (actor_account_id, actor_email, tenant_id, action, target, detail, ip)
    VALUES (p_actor, actor_email, t.id, p_action, left(p_target, 200), p_detail, left(p_ip, 64));
END
$$;

REVOKE EXECUTE ON FUNCTION platform.tenant_audit(text, text, jsonb, uuid, text) FROM PUBLIC;
