-- Labels (issue 8): templates designed on /print/lables and print jobs that
-- render a code job's codes as PDF or ZPL.
--
-- A template's design (size, symbology, sheet, text lines, font, margin) is
-- one JSON object that the server validates with its renderer before it is
-- stored (labels::Design). A print job keeps a copy of the design it was
-- made with, so a reprint gives the same labels even after the template
-- changed. Its output is a file in the object store
-- (tenants/{tenant}/prints/{job}.{pdf|zpl}).

CREATE TABLE label_templates (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    design      jsonb NOT NULL CHECK (jsonb_typeof(design) = 'object'),
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  uuid,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    archived_at timestamptz
);
-- Names are unique among the templates in use, whatever the case.
CREATE UNIQUE INDEX label_templates_name_key ON label_templates (lower(name)) WHERE archived_at IS NULL;

CREATE TABLE print_jobs (
    id           uuid PRIMARY KEY,
    code_job_id  uuid NOT NULL REFERENCES code_jobs (id),
    template_id  uuid NOT NULL REFERENCES label_templates (id),
    design       jsonb NOT NULL CHECK (jsonb_typeof(design) = 'object'),
    format       text NOT NULL CHECK (format IN ('pdf', 'zpl')),
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    -- Labels to print, and printed so far (progress; the output exists only
    -- once the job is done).
    total        integer NOT NULL CHECK (total >= 1),
    printed      integer NOT NULL DEFAULT 0 CHECK (printed BETWEEN 0 AND total),
    output_bytes bigint,
    error        text,
    reprint_of   uuid REFERENCES print_jobs (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   uuid,
    started_at   timestamptz,
    finished_at  timestamptz,
    CHECK ((status = 'done') = (output_bytes IS NOT NULL)),
    CHECK ((status = 'failed') = (error IS NOT NULL))
);
CREATE INDEX print_jobs_created_idx ON print_jobs (created_at DESC);
