-- Serialized codes (issue 8): lots, code jobs and the codes themselves.
--
-- Designed for 100 million codes per tenant:
-- * a code row is 16 bytes of data: its serial (a random 64-bit number,
--   shown as 11 base-62 characters, see codes::Serial), its job and its place
--   in the job. The product, GTIN, lot and resolver base are the job's.
-- * codes are written with COPY, in batches that commit with the job's
--   progress counter, so `generated` always equals the codes stored.
-- * one B-tree, on the serial: what the resolver looks up, and what keeps
--   serials unique (in the whole tenant, so per GTIN too) and never reused
--   (codes are never deleted). Reading a job's codes in order uses a BRIN
--   index on (job, position): jobs are written in long runs, so a few
--   kilobytes of BRIN find their pages.

-- The organisation's resolver base for new codes' URIs; NULL: the app's
-- PUBLIC_URL. A job keeps the base it was created with.
ALTER TABLE org_settings
    ADD COLUMN resolver_base text CHECK (resolver_base ~ '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*$');

-- A lot (batch) of a product: GS1 AI 10, with its dates (AI 11, AI 17).
CREATE TABLE lots (
    id              uuid PRIMARY KEY,
    product_id      uuid NOT NULL REFERENCES products (id),
    -- GS1 AI 10: 1 to 20 characters of the GS1 character set 82.
    number          text NOT NULL CHECK (number ~ '^[!"%&''()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$'),
    manufactured_on date,
    expires_on      date,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (expires_on IS NULL OR manufactured_on IS NULL OR expires_on > manufactured_on),
    UNIQUE (product_id, number)
);

-- A request to generate `quantity` codes for a product (and lot). `seq` is a
-- small key for code rows; `id` is the public one.
CREATE TABLE code_jobs (
    seq            integer GENERATED ALWAYS AS IDENTITY UNIQUE,
    id             uuid PRIMARY KEY,
    product_id     uuid NOT NULL REFERENCES products (id),
    lot_id         uuid REFERENCES lots (id),
    -- The GTIN and resolver base the codes were made with: printed codes
    -- never change.
    gtin           text NOT NULL CHECK (gtin ~ '^[0-9]{14}$'),
    resolver_base  text NOT NULL,
    quantity       integer NOT NULL CHECK (quantity BETWEEN 1 AND 10000000),
    generated      integer NOT NULL DEFAULT 0 CHECK (generated BETWEEN 0 AND quantity),
    status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    error          text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    created_by     uuid,
    started_at     timestamptz,
    finished_at    timestamptz,
    CHECK (status <> 'done' OR generated = quantity),
    CHECK ((status = 'failed') = (error IS NOT NULL))
);
CREATE INDEX code_jobs_product_idx ON code_jobs (product_id, created_at DESC);

-- No foreign key to code_jobs: it would cost a lookup per row written;
-- only the job runner writes codes, for the job it holds.
CREATE TABLE codes (
    serial   bigint NOT NULL,
    job_seq  integer NOT NULL,
    position integer NOT NULL
);
CREATE UNIQUE INDEX codes_serial_key ON codes (serial);
CREATE INDEX codes_job_brin ON codes USING brin (job_seq, position);
