-- The GTIN registry: which tenant each GTIN belongs to, so that a scan of a
-- code can find its tenant (issue 9), and so that no two tenants can claim
-- the same GTIN. Tenants reach it only through the functions below
-- (ADR 0010): each acts for the calling tenant, found from session_user.

CREATE TABLE platform.gtins (
    -- GTIN-14: GTIN-8/12/13 are zero-padded on the left.
    gtin       text PRIMARY KEY CHECK (gtin ~ '^[0-9]{14}$'),
    tenant_id  uuid NOT NULL REFERENCES platform.tenants (id) ON DELETE CASCADE,
    claimed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gtins_tenant_idx ON platform.gtins (tenant_id);

-- Whether a GTIN-14's last digit is its GS1 mod-10 check digit (weights 3
-- and 1 from the right, starting next to the check digit).
CREATE FUNCTION platform.gtin14_valid(gtin text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    total integer := 0;
BEGIN
    IF gtin !~ '^[0-9]{14}$' THEN
        RETURN false;
    END IF;
    FOR i IN 1..13 LOOP
        total := total + substr(gtin, i, 1)::integer * CASE WHEN i % 2 = 1 THEN 3 ELSE 1 END;
    END LOOP;
    RETURN (10 - total % 10) % 10 = substr(gtin, 14, 1)::integer;
END
$$;

-- Claims a GTIN-14 for the caller. True when it is the caller's (claimed now
-- or before), false when another tenant holds it (which tenant is not said).
-- Concurrent claims of one GTIN queue on its key: one tenant wins.
CREATE FUNCTION platform.tenant_claim_gtin(p_gtin text)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    t := platform.caller_tenant(false);
    IF NOT coalesce(platform.gtin14_valid(p_gtin), false) THEN
        RAISE EXCEPTION 'not a valid GTIN-14: %', p_gtin USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO platform.gtins (gtin, tenant_id) VALUES (p_gtin, t.id) ON CONFLICT (gtin) DO NOTHING;
    RETURN EXISTS (SELECT 1 FROM platform.gtins g WHERE g.gtin = p_gtin AND g.tenant_id = t.id);
END
$$;

-- Gives up the caller's claim on a GTIN (nothing when it is not the caller's).
CREATE FUNCTION platform.tenant_release_gtin(p_gtin text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    t := platform.caller_tenant(false);
    DELETE FROM platform.gtins WHERE gtin = p_gtin AND tenant_id = t.id;
END
$$;

-- The caller's product limit, its tenant row locked until the transaction
-- ends: concurrent product creations queue here, then each counts its
-- products in a statement of its own (which sees what those ahead committed).
CREATE FUNCTION platform.tenant_lock_product_limit()
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (platform.caller_tenant(true)).product_limit;
END
$$;

-- The caller's plan limits, for showing them.
CREATE FUNCTION platform.tenant_plan(OUT product_limit integer, OUT code_quota bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    t := platform.caller_tenant(false);
    product_limit := t.product_limit;
    code_quota := t.code_quota;
END
$$;

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA platform FROM PUBLIC;
