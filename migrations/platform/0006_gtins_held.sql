-- Which of some GTIN-14s other tenants hold, for checking a product import
-- before anything is written (the import's dry run). It says only that a
-- GTIN is taken, never by whom: as much as creating that product would say.
CREATE FUNCTION platform.tenant_gtins_held_by_others(p_gtins text[])
RETURNS SETOF text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    t := platform.caller_tenant(false);
    RETURN QUERY
        SELECT g.gtin FROM platform.gtins g
        WHERE g.gtin = ANY (p_gtins) AND g.tenant_id <> t.id;
END
$$;

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA platform FROM PUBLIC;
