-- Serial-level shipments (issue 23): which codes (serialised packs) of a lot
-- each package of a shipment carried, so that the EPCIS export lists the
-- package's SGTINs under its SSCC, as it lists a code job's at
-- commissioning.
--
-- * `shipment_codes`: the codes a package took of a lot, as RANGES of a
--   code job's positions (`codes.position`, 1 to the job's quantity), never
--   a row per code. When a shipment ships, each (package, lot) whose lot has
--   finished code jobs takes the lot's next codes not shipped yet, one per
--   whole unit (a fractional unit is not a pack), in order of job (`seq`)
--   then position. A job's ranges are therefore contiguous from position 1:
--   its next free position is max(last_position) + 1. Allocations of one
--   lot are serialised by its row lock (`logistics::store::lock_coded_lots`),
--   so parallel shipments never take the same codes. `epc_class` is the
--   class of the stored AggregationEvent's `childQuantityList` entry these
--   units are counted in (the lot's class as the event named it): the export
--   takes them out of that quantity and lists them as EPCs instead.
--   Append-only.
-- * `epcis_events.shipment_id`, `shipment_package`: the marker of a
--   package's AggregationEvent (as `code_job_id` marks a commissioning), so
--   the export knows whose codes to render.

CREATE TABLE shipment_codes (
    shipment_id    uuid NOT NULL,
    package        integer NOT NULL,
    lot_id         uuid NOT NULL REFERENCES lots (id),
    -- code_jobs(seq) of a finished job of the lot.
    job_seq        integer NOT NULL REFERENCES code_jobs (seq),
    first_position integer NOT NULL CHECK (first_position >= 1),
    last_position  integer NOT NULL CHECK (last_position >= first_position),
    epc_class      text NOT NULL CHECK (length(epc_class) BETWEEN 1 AND 500),
    PRIMARY KEY (shipment_id, package, job_seq, first_position),
    FOREIGN KEY (shipment_id, package) REFERENCES shipment_packages (shipment_id, package),
    -- A job's positions are given once: ranges of one job never share a
    -- start (nor, by the allocation's lock, overlap).
    UNIQUE (job_seq, first_position)
);
CREATE INDEX shipment_codes_job_idx ON shipment_codes (job_seq, last_position);
CREATE INDEX shipment_codes_lot_idx ON shipment_codes (lot_id);
CREATE TRIGGER shipment_codes_append_only
    BEFORE UPDATE OR DELETE ON shipment_codes
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER shipment_codes_not_truncated
    BEFORE TRUNCATE ON shipment_codes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- The finished code jobs of a lot, in order: what a shipment allocates from.
CREATE INDEX code_jobs_lot_idx ON code_jobs (lot_id, seq) WHERE lot_id IS NOT NULL;

ALTER TABLE epcis_events
    ADD COLUMN shipment_id      uuid,
    ADD COLUMN shipment_package integer,
    ADD CONSTRAINT epcis_events_shipment_package_check
        CHECK ((shipment_id IS NULL) = (shipment_package IS NULL));
-- A package is aggregated once.
CREATE UNIQUE INDEX epcis_events_shipment_package_key
    ON epcis_events (shipment_id, shipment_package) WHERE shipment_id IS NOT NULL;
