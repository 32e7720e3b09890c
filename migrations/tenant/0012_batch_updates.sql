-- Batch updates (issue 10): the batch data that India's Schedule H2 asks a
-- pharmaceutical pack's QR code to carry, assigned to codes by file (CSV or
-- XLSX, up to 1,000,000 rows) or by the manual form.
--
-- * `batch_updates`: one row per upload or form submission: who, when, the
--   file's name, size and SHA-256, whether it was a dry run, its status and
--   progress (bytes and rows read), and its outcome. The uploaded file is
--   kept in the object store (`storage.rs`, key from the update's id) until
--   the update ends; the job reads it from there.
-- * `batch_update_errors`: the first problems found (row, column, reason),
--   capped by the job; `error_count` on the update counts them all.
-- * `batches`: the distinct batch data an update assigned (a file of a
--   million codes usually names a handful of batches), so a code's row
--   stays small.
-- * `code_batches`: the batch data of a code, by serial; the public scan
--   page reads it with one primary-key lookup. A later update replaces it.
--
-- Idempotency: an applied update's content hash is unique among updates
-- that were applied or are being applied (the partial unique index), so the
-- same file uploaded twice, even at once, is applied once.

CREATE TABLE batch_updates (
    id            uuid PRIMARY KEY,
    -- 'file' (CSV or XLSX upload) or 'form' (the manual entry).
    source        text NOT NULL CHECK (source IN ('file', 'form')),
    file_name     text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
    format        text NOT NULL CHECK (format IN ('csv', 'xlsx', 'json')),
    size_bytes    bigint NOT NULL CHECK (size_bytes >= 0),
    content_sha256 text NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
    dry_run       boolean NOT NULL,
    status        text NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'validating', 'applying', 'valid', 'invalid', 'applied', 'failed')),
    bytes_read    bigint NOT NULL DEFAULT 0 CHECK (bytes_read >= 0),
    rows_read     integer NOT NULL DEFAULT 0 CHECK (rows_read >= 0),
    rows_applied  integer NOT NULL DEFAULT 0 CHECK (rows_applied >= 0),
    error_count   integer NOT NULL DEFAULT 0 CHECK (error_count >= 0),
    -- Why a failed update could not finish (not the rows' problems).
    failure       text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    created_by    uuid NOT NULL,
    -- Who, as the history shows it (the account's name when it uploaded).
    created_by_name text NOT NULL CHECK (length(created_by_name) BETWEEN 1 AND 200),
    started_at    timestamptz,
    finished_at   timestamptz,
    CHECK ((status = 'failed') = (failure IS NOT NULL)),
    CHECK (status <> 'applied' OR NOT dry_run)
);
CREATE INDEX batch_updates_created_idx ON batch_updates (created_at DESC, id);
CREATE UNIQUE INDEX batch_updates_applied_once ON batch_updates (content_sha256)
    WHERE NOT dry_run AND status IN ('queued', 'validating', 'applying', 'applied');

CREATE TABLE batch_update_errors (
    update_id  uuid NOT NULL REFERENCES batch_updates (id),
    -- The file's row (the header is row 1); 0 for the file as a whole.
    row_number integer NOT NULL CHECK (row_number >= 0),
    column_name text NOT NULL CHECK (length(column_name) <= 40),
    reason     text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500)
);
CREATE INDEX batch_update_errors_idx ON batch_update_errors (update_id, row_number);

CREATE TABLE batches (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    update_id       uuid NOT NULL REFERENCES batch_updates (id),
    -- Its number among the update's distinct batches (0, 1, …): how the
    -- job's staged rows name it.
    position        integer NOT NULL CHECK (position >= 0),
    gtin            text NOT NULL CHECK (gtin ~ '^[0-9]{14}$'),
    -- GS1 AI 10's character set, as lots.number.
    batch_number    text NOT NULL CHECK (batch_number ~ '^[!"%&''()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$'),
    manufactured_on date NOT NULL,
    expires_on      date NOT NULL,
    licence_number  text NOT NULL CHECK (length(licence_number) BETWEEN 1 AND 50),
    -- Codes the update gave this batch data.
    codes           integer NOT NULL CHECK (codes >= 1),
    CHECK (expires_on > manufactured_on),
    UNIQUE (update_id, position),
    UNIQUE (update_id, gtin, batch_number, manufactured_on, expires_on, licence_number)
);

-- No foreign keys (to codes or batches): each would cost a lookup per row
-- of a million-row update; only the batch-update job writes here, after it
-- checked every serial, in the transaction that writes the batches.
CREATE TABLE code_batches (
    serial    bigint PRIMARY KEY,
    batch_id  bigint NOT NULL
);
