-- Platform rows a tenant's own connection may change, and only its own.
--
-- A tenant connection logs in as the tenant's role, which reaches its own
-- schema and nothing else (ADR 0010). Some operations must change platform
-- rows and tenant rows in one transaction (adding a user within the user
-- limit; removing a user and their preferences; an audit record with the
-- change it records). They run on the tenant's connection and call these
-- functions, which:
--   - run with the rights of their owner (SECURITY DEFINER; the migration
--     runner makes the platform role their owner, so they can do no more than
--     the platform role can);
--   - act only for the calling tenant, found from `session_user` (the role the
--     connection logged in as, which no statement can change), never from an
--     argument;
--   - check their own limits;
--   - have a fixed search_path and name every object with its schema.
-- So even an injected call can only touch the caller's own tenant.
--
-- Functions whose name starts with `tenant_` are callable by tenant roles
-- (the migration runner grants EXECUTE on them to the tenant group role);
-- every other function in this schema is callable by no tenant.
--
-- Errors: SQLSTATE 42501 (insufficient_privilege) when the caller is not an
-- active tenant or the actor is not one of its accounts; 'BO001' when the
-- user limit is reached; 22023 (invalid_parameter_value) for a value the
-- server validates before calling (so it signals a bug or an injected call).

-- The calling tenant, locked when `for_update`; raises when the session's
-- role is no active tenant's role. (Helpers of the functions below, which
-- run as their owner; no tenant may call them.)
CREATE FUNCTION platform.caller_tenant(for_update boolean)
RETURNS platform.tenants
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    IF for_update THEN
        SELECT * INTO t FROM platform.tenants WHERE role_name = session_user FOR UPDATE;
    ELSE
        SELECT * INTO t FROM platform.tenants WHERE role_name = session_user;
    END IF;
    IF NOT FOUND OR t.status <> 'active' THEN
        RAISE EXCEPTION 'this connection belongs to no active tenant'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN t;
END
$$;

-- The email of the caller's account `actor`; raises when it is not one.
CREATE FUNCTION platform.caller_actor(tenant uuid, actor uuid)
RETURNS text
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    actor_email text;
BEGIN
    SELECT a.email INTO actor_email FROM platform.accounts a
    WHERE a.id = actor AND a.tenant_id = tenant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the actor is not an account of this organisation'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN actor_email;
END
$$;

-- Adds an account to the caller's organisation, within its user limit, and
-- records it in the audit log. Concurrent adds queue on the tenant's row;
-- the count is its own statement so that it sees the adds that committed
-- while this one waited. Returns the new account's id.
CREATE FUNCTION platform.tenant_add_account(
    p_email text, p_name text, p_role text, p_password_hash text, p_actor uuid, p_ip text
)
RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
    actor_email text;
    used bigint;
    new_id uuid := gen_random_uuid();
BEGIN
    t := platform.caller_tenant(true);
    actor_email := platform.caller_actor(t.id, p_actor);
    IF NOT ((t.kind = 'brand' AND p_role IN ('manager', 'worker'))
            OR (t.kind = 'client' AND p_role = 'employee')) THEN
        RAISE EXCEPTION 'an organisation of kind % cannot add a user with role %', t.kind, p_role
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_password_hash NOT LIKE '$argon2id$%' THEN
        RAISE EXCEPTION 'the password hash is not an argon2id hash'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT count(*) INTO used FROM platform.accounts WHERE tenant_id = t.id;
    IF used >= t.user_limit THEN
        RAISE EXCEPTION 'the organisation has reached its user limit of %', t.user_limit
            USING ERRCODE = 'BO001';
    END IF;
    INSERT INTO platform.accounts (id, tenant_id, email, name, role, password_hash)
    VALUES (new_id, t.id, p_email, p_name, p_role, p_password_hash);
    INSERT INTO platform.audit_log (actor_account_id, actor_email, tenant_id, action, target, detail, ip)
    VALUES (p_actor, actor_email, t.id, 'user.add', p_email,
            jsonb_build_object('accountId', new_id, 'role', p_role), left(p_ip, 64));
    RETURN new_id;
END
$$;

-- Removes the caller's account `p_account` (never the actor's own), with its
-- sessions, and records it. Returns its email, or NULL when the caller's
-- organisation has no such account.
CREATE FUNCTION platform.tenant_remove_account(p_account uuid, p_actor uuid, p_ip text)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
    actor_email text;
    removed text;
BEGIN
    t := platform.caller_tenant(false);
    actor_email := platform.caller_actor(t.id, p_actor);
    IF p_account = p_actor THEN
        RAISE EXCEPTION 'an account cannot remove itself'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    DELETE FROM platform.accounts WHERE id = p_account AND tenant_id = t.id
    RETURNING email INTO removed;
    IF removed IS NOT NULL THEN
        INSERT INTO platform.audit_log (actor_account_id, actor_email, tenant_id, action, target, detail, ip)
        VALUES (p_actor, actor_email, t.id, 'user.remove', removed,
                jsonb_build_object('accountId', p_account), left(p_ip, 64));
    END IF;
    RETURN removed;
END
$$;

-- Records an action of the caller's account `p_actor` on its own
-- organisation in the audit log. Only `organisation.*` actions: what
-- accounts do to accounts is recorded by the functions above.
CREATE FUNCTION platform.tenant_audit(
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
    IF p_action !~ '^organisation\.[a-z_]{1,40}$' THEN
        RAISE EXCEPTION 'a tenant may not record the action %', p_action
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO platform.audit_log (actor_account_id, actor_email, tenant_id, action, target, detail, ip)
    VALUES (p_actor, actor_email, t.id, p_action, left(p_target, 200), p_detail, left(p_ip, 64));
END
$$;

-- Functions are executable by PUBLIC by default: not these.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA platform FROM PUBLIC;
