-- Background jobs of every tenant (issue 8): code generation and label
-- printing. The job itself (its status, progress and result) is a row in
-- the tenant's schema; this queue only says which tenant has work, so that
-- the job runner (the platform role) finds it without visiting every schema.
--
-- A runner leases a row (`leased_until`) and renews the lease while it
-- works; a row whose lease ran out (its server stopped) is taken again and
-- the job resumes from what its tenant's row says was committed. Several
-- servers can share the queue: rows are taken with FOR UPDATE SKIP LOCKED.
CREATE TABLE platform.job_queue (
    tenant_id    uuid NOT NULL REFERENCES platform.tenants (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('codes', 'labels')),
    job_id       uuid NOT NULL,
    enqueued_at  timestamptz NOT NULL DEFAULT now(),
    leased_until timestamptz,
    -- The runner (one per server process) holding the lease.
    leased_by    uuid,
    attempts     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, kind, job_id)
);
CREATE INDEX job_queue_order_idx ON platform.job_queue (enqueued_at);

-- Queues a job of the caller's own tenant (the runner checks the job exists
-- in that tenant's schema; a row naming none is dropped).
CREATE FUNCTION platform.tenant_enqueue_job(p_kind text, p_job uuid)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t platform.tenants;
BEGIN
    t := platform.caller_tenant(false);
    INSERT INTO platform.job_queue (tenant_id, kind, job_id) VALUES (t.id, p_kind, p_job)
    ON CONFLICT DO NOTHING;
END
$$;

-- The caller's code quota, its tenant row locked until the transaction ends:
-- concurrent code jobs queue here, then each sums the codes already reserved
-- in a statement of its own (which sees what those ahead committed).
CREATE FUNCTION platform.tenant_lock_code_quota()
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN (platform.caller_tenant(true)).code_quota;
END
$$;

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA platform FROM PUBLIC;
