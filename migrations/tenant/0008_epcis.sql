-- EPCIS 2.0 events (issue 9): the product journey and traceability.
--
-- One row per event, whatever its size: an event keeps its JSON-LD as
-- captured or built (`document`, what the export answers) and, beside it,
-- the columns that queries need. Designed for large volumes:
-- * a code job's commissioning is one ObjectEvent with a quantityList (the
--   job's class, e.g. https://id.gs1.org/01/{gtin}/10/{lot}, and its
--   quantity), never a row per code; `code_job_id` names the job;
-- * scans are not events: the journey reads them from `scan_rollup`
--   (0006_scans.sql) as observations per day and country;
-- * `gtins` (the GTIN-14s any identifier of the event names: Digital Link
--   URIs, SGTIN/LGTIN URNs) finds a product's events through a GIN index;
--   `ids` (every EPC, class and parent the event names) finds the events of
--   the containers a product was packed into.
-- Events are never changed or deleted (EPCIS is an append-only record;
-- corrections are new events).

CREATE TABLE epcis_events (
    seq                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The event's eventID: as captured, or urn:uuid: for events the
    -- server makes (or captured without one).
    event_id                text NOT NULL UNIQUE CHECK (length(event_id) BETWEEN 1 AND 500),
    event_type              text NOT NULL CHECK (event_type IN ('ObjectEvent', 'AggregationEvent', 'TransformationEvent')),
    action                  text CHECK (action IN ('ADD', 'OBSERVE', 'DELETE')),
    event_time              timestamptz NOT NULL,
    event_time_zone_offset  text NOT NULL CHECK (event_time_zone_offset ~ '^[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)$'),
    record_time             timestamptz NOT NULL DEFAULT now(),
    -- CBV 2.0 values as bare words (`shipping`, `in_transit`); other
    -- vocabularies' URIs as given.
    biz_step                text,
    disposition             text,
    read_point              text,
    biz_location            text,
    parent_id               text,
    gtins                   text[] NOT NULL DEFAULT '{}',
    ids                     text[] NOT NULL DEFAULT '{}',
    -- Where it came from: a code job's commissioning, a captured document,
    -- or a step recorded in the app.
    source                  text NOT NULL CHECK (source IN ('codes', 'capture', 'recorded')),
    code_job_id             uuid,
    recorded_by             uuid,
    document                jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object')
);
CREATE INDEX epcis_events_gtins_idx ON epcis_events USING gin (gtins);
CREATE INDEX epcis_events_ids_idx ON epcis_events USING gin (ids);
CREATE INDEX epcis_events_time_idx ON epcis_events (event_time, seq);
-- A code job is commissioned once.
CREATE UNIQUE INDEX epcis_events_code_job_key ON epcis_events (code_job_id) WHERE source = 'codes';
