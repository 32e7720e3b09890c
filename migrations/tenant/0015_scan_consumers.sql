-- A fair verdict for the pack's owner (issue 21).
--
-- Before, a code turned suspicious once it was scanned more than
-- `suspicious_scan_count` times, by anyone: a consumer who scanned their
-- own pack six times was told it may have been copied. Now the count is of
-- distinct consumers, and the distance rule compares scans by different
-- consumers only:
--
-- * A consumer is the anonymous first-party id of the `brandops_consumer`
--   cookie (the one sessions and users count). A scan that comes without it
--   (a first visit, or cookies refused; the cookie is set on that first
--   answer) is counted as the consumer of its place, when the place is
--   known (country, region and city: repeat scans from one place count once),
--   else as a consumer of its own.
-- * `code_scan_consumers` holds each (code, consumer) once. The statement
--   that records a scan inserts its pair (`ON CONFLICT DO NOTHING`) and adds
--   one to `code_scan_state.consumers` only when the pair is new; a parallel
--   scan by another consumer queues on the code's row, as the scan count
--   always did, so no count is lost.
-- * `org_settings.suspicious_scan_count` keeps its name and now means: a
--   code scanned by more than this many distinct consumers is suspicious.
--   The distance rule (`suspicious_distance_km` within
--   `suspicious_window_hours`) applies to two scans by different consumers.

CREATE TABLE code_scan_consumers (
    serial      bigint NOT NULL,
    consumer    uuid NOT NULL,
    first_at    timestamptz NOT NULL,
    PRIMARY KEY (serial, consumer)
);

ALTER TABLE code_scan_state
    -- Distinct consumers who scanned the code (at least 1 once written; the
    -- check allows the 0 a repeat scan proposes before its conflict adds it).
    ADD COLUMN consumers integer NOT NULL DEFAULT 1 CHECK (consumers >= 0),
    -- The consumer of the code's last known place (the distance rule
    -- compares a scan with it only when they differ).
    ADD COLUMN last_consumer uuid;

-- The consumer a scan was counted as (the cookie's id, or its place's), for
-- the code's scan history; NULL for codes not recognised, and for scans
-- before this migration (their history shows their cookie's id instead).
ALTER TABLE scans ADD COLUMN counted_as uuid;

-- The codes' consumers so far, from the scans' cookies.
INSERT INTO code_scan_consumers (serial, consumer, first_at)
SELECT serial, consumer_id, min(scanned_at)
FROM scans WHERE serial IS NOT NULL AND consumer_id IS NOT NULL
GROUP BY serial, consumer_id
ON CONFLICT DO NOTHING;

UPDATE code_scan_state s SET consumers = greatest(1, c.n)
FROM (SELECT serial, count(*)::integer AS n FROM code_scan_consumers GROUP BY serial) c
WHERE c.serial = s.serial;

-- A code's scans, newest first, for its history.
CREATE INDEX scans_serial_idx ON scans (serial, id DESC) WHERE serial IS NOT NULL;
