-- Quality and compliance (issue 22): inspections of lots, nonconformances
-- worked through to a corrective and preventive action (CAPA), and the
-- certificate of analysis made from the inspections.
--
-- * `inspections` and `inspection_checks`: what an inspector measured or saw
--   on a lot, check by check, and the verdict. A record of fact, never
--   changed afterwards (append-only, `refuse_change()` of 0019): a wrong
--   inspection is answered by another one. A failed inspection puts the lot
--   on `held`, a passed one releases a lot in `quarantine`, in the same
--   transaction (`lots::store::change_status`, which writes the lot's
--   history and audit rows).
-- * A check has limits (`min_value` and/or `max_value`, decimals) or an
--   expected text, never both, and the value it was given; `passed` is the
--   server's decision (quality::Check::passes), stored as it was decided.
-- * `nonconformances`: a problem found (with a lot or not), moved strictly
--   in order open -> investigating -> action -> verification -> closed.
--   `version` grows with every change, so that two people editing one card
--   cannot overwrite each other (the second gets 409 `stale`).
-- * `nonconformance_steps`: every state it entered, by whom and when
--   (append-only).

CREATE TABLE inspections (
    id                 uuid PRIMARY KEY,
    lot_id             uuid NOT NULL REFERENCES lots (id),
    verdict            text NOT NULL CHECK (verdict IN ('pass', 'fail')),
    -- The account (platform.accounts(id), no foreign key by design) and its
    -- name at the time.
    inspected_by       uuid,
    inspected_by_name  text NOT NULL CHECK (length(inspected_by_name) BETWEEN 1 AND 200),
    inspected_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inspections_lot_idx ON inspections (lot_id, inspected_at DESC);

CREATE TABLE inspection_checks (
    inspection_id  uuid NOT NULL REFERENCES inspections (id),
    -- Its place in the inspection, from 1, as it was sent.
    position       smallint NOT NULL CHECK (position BETWEEN 1 AND 50),
    parameter      text NOT NULL CHECK (length(parameter) BETWEEN 1 AND 100),
    min_value      numeric,
    max_value      numeric,
    expected       text CHECK (length(expected) BETWEEN 1 AND 200),
    value          text NOT NULL CHECK (length(value) BETWEEN 1 AND 200),
    passed         boolean NOT NULL,
    PRIMARY KEY (inspection_id, position),
    CHECK ((min_value IS NOT NULL OR max_value IS NOT NULL) <> (expected IS NOT NULL)),
    CHECK (min_value IS NULL OR max_value IS NULL OR min_value <= max_value)
);

CREATE TRIGGER inspections_append_only
    BEFORE UPDATE OR DELETE ON inspections
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER inspections_not_truncated
    BEFORE TRUNCATE ON inspections
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER inspection_checks_append_only
    BEFORE UPDATE OR DELETE ON inspection_checks
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER inspection_checks_not_truncated
    BEFORE TRUNCATE ON inspection_checks
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

CREATE TABLE nonconformances (
    id                 uuid PRIMARY KEY,
    lot_id             uuid REFERENCES lots (id),
    title              text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    description        text NOT NULL CHECK (length(description) BETWEEN 1 AND 5000),
    severity           text NOT NULL CHECK (severity IN ('minor', 'major', 'critical')),
    state              text NOT NULL DEFAULT 'open'
                       CHECK (state IN ('open', 'investigating', 'action', 'verification', 'closed')),
    root_cause         text CHECK (length(root_cause) BETWEEN 1 AND 5000),
    corrective_action  text CHECK (length(corrective_action) BETWEEN 1 AND 5000),
    verification_note  text CHECK (length(verification_note) BETWEEN 1 AND 5000),
    version            integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_by         uuid,
    created_by_name    text NOT NULL CHECK (length(created_by_name) BETWEEN 1 AND 200),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    -- The server checks these first (409 `incomplete`); the database too.
    CHECK (state IN ('open', 'investigating') OR root_cause IS NOT NULL),
    CHECK (state IN ('open', 'investigating', 'action') OR corrective_action IS NOT NULL),
    CHECK (state <> 'closed' OR verification_note IS NOT NULL)
);
CREATE INDEX nonconformances_state_idx ON nonconformances (state, created_at DESC);
CREATE INDEX nonconformances_lot_idx ON nonconformances (lot_id) WHERE lot_id IS NOT NULL;

CREATE TABLE nonconformance_steps (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    nonconformance_id  uuid NOT NULL REFERENCES nonconformances (id),
    -- NULL for the first step, when it was raised (`open`).
    from_state         text,
    to_state           text NOT NULL
                       CHECK (to_state IN ('open', 'investigating', 'action', 'verification', 'closed')),
    changed_by         uuid,
    changed_by_name    text NOT NULL CHECK (length(changed_by_name) BETWEEN 1 AND 200),
    changed_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nonconformance_steps_nc_idx ON nonconformance_steps (nonconformance_id, id);

CREATE TRIGGER nonconformance_steps_append_only
    BEFORE UPDATE OR DELETE ON nonconformance_steps
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER nonconformance_steps_not_truncated
    BEFORE TRUNCATE ON nonconformance_steps
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
