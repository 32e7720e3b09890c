-- Platform schema: everything that is shared by all tenants.
--
-- Identity (accounts), sessions and the audit log live here because they are
-- needed before we know which tenant a request belongs to. Tenant business data
-- never lives here: it lives in one schema per tenant (see migrations/tenant/),
-- reachable only through that tenant's PostgreSQL role.
--
-- This file runs as the database owner. The runtime role (created by the
-- migration runner, not here, because its name depends on the database) gets
-- DML on these tables and nothing else.

CREATE SCHEMA IF NOT EXISTS platform;

CREATE TABLE platform.tenants (
    id           uuid PRIMARY KEY,
    -- The public tenant id used in URLs and the session answer ("acme", "clientA").
    client_id    text NOT NULL,
    name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    kind         text NOT NULL CHECK (kind IN ('brand', 'client')),
    -- Both are derived from client_id by the provisioning code and validated as
    -- plain identifiers there; they are interpolated into SET LOCAL ROLE and
    -- search_path, never taken from request text.
    schema_name  text NOT NULL UNIQUE CHECK (schema_name ~ '^[a-z][a-z0-9_]{0,62}$'),
    role_name    text NOT NULL UNIQUE CHECK (role_name ~ '^[a-z][a-z0-9_]{0,62}$'),
    user_limit   integer NOT NULL CHECK (user_limit BETWEEN 1 AND 100000),
    modules      text[] NOT NULL DEFAULT '{}',
    status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    suspended_at timestamptz
);
-- clientIds are compared case-insensitively so "ClientA" cannot be onboarded
-- next to "clientA".
CREATE UNIQUE INDEX tenants_client_id_key ON platform.tenants (lower(client_id));

CREATE TABLE platform.accounts (
    id            uuid PRIMARY KEY,
    -- NULL only for platform admins, who belong to no tenant.
    tenant_id     uuid REFERENCES platform.tenants (id) ON DELETE RESTRICT,
    email         text NOT NULL CHECK (email = lower(email) AND length(email) <= 254),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    role          text NOT NULL CHECK (role IN ('admin', 'manager', 'worker', 'employee', 'platform_admin')),
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT accounts_platform_admin_has_no_tenant
        CHECK ((role = 'platform_admin') = (tenant_id IS NULL))
);
-- Emails are stored lower-cased; one account per email across the platform,
-- because sign-in takes only an email.
CREATE UNIQUE INDEX accounts_email_key ON platform.accounts (email);
CREATE INDEX accounts_tenant_idx ON platform.accounts (tenant_id);

CREATE TABLE platform.sessions (
    -- SHA-256 of the opaque session id; the id itself is never stored.
    id_hash      bytea PRIMARY KEY CHECK (length(id_hash) = 32),
    account_id   uuid NOT NULL REFERENCES platform.accounts (id) ON DELETE CASCADE,
    csrf_token   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_account_idx ON platform.sessions (account_id);
CREATE INDEX sessions_expires_idx ON platform.sessions (expires_at);

-- Failed sign-in attempts, per key ("account:<email>" or "ip:<address>").
-- A window of failures leads to a short, growing delay, never a permanent lock,
-- so an attacker cannot lock a victim out for good.
CREATE TABLE platform.login_throttle (
    key          text PRIMARY KEY,
    failures     integer NOT NULL,
    window_start timestamptz NOT NULL,
    locked_until timestamptz
);

CREATE TABLE platform.audit_log (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at                timestamptz NOT NULL DEFAULT now(),
    actor_account_id  uuid,
    actor_email       text,
    tenant_id         uuid,
    action            text NOT NULL,
    -- Whom or what the action was about: an account id/email, a tenant id.
    target            text,
    detail            jsonb NOT NULL DEFAULT '{}'::jsonb,
    ip                text
);
CREATE INDEX audit_log_tenant_at_idx ON platform.audit_log (tenant_id, at DESC);

-- Which tenant migrations each tenant schema has had. Kept here, not in the
-- tenant schema, so a tenant role can never tamper with it.
CREATE TABLE platform.tenant_migrations (
    tenant_id  uuid NOT NULL REFERENCES platform.tenants (id) ON DELETE CASCADE,
    version    bigint NOT NULL,
    checksum   bytea NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, version)
);
