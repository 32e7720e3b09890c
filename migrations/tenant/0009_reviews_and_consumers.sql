-- Consumers, their sessions and their reviews (issue 9).
--
-- A consumer is an anonymous first-party id: a random UUID the scan page
-- keeps in a cookie of the app's own origin. Nothing else identifies them,
-- and no third party sees it. A session is a run of scans by one consumer
-- with less than 30 minutes between two of them.
--
-- Reviews are left on the scan page, tied to a real scan (one review per
-- scan), stored as plain text and shown escaped.

ALTER TABLE scans ADD COLUMN consumer_id uuid;

CREATE TABLE consumers (
    id          uuid PRIMARY KEY,
    first_seen  timestamptz NOT NULL,
    last_seen   timestamptz NOT NULL,
    -- The scan before the last one (NULL after the first): written by the
    -- same statement that moves last_seen, so that it can tell whether the
    -- last scan started a new session or a new day.
    previous_seen timestamptz,
    scans       integer NOT NULL CHECK (scans >= 1),
    sessions    integer NOT NULL CHECK (sessions >= 1)
);

-- Per day: consumers seen, of whom new (first seen that day), sessions
-- started. The dashboard's sessions and users widgets sum this.
CREATE TABLE consumer_rollup (
    day            date PRIMARY KEY,
    consumers      bigint NOT NULL DEFAULT 0,
    new_consumers  bigint NOT NULL DEFAULT 0,
    sessions       bigint NOT NULL DEFAULT 0,
    session_scans  bigint NOT NULL DEFAULT 0
);

CREATE TABLE reviews (
    id          uuid PRIMARY KEY,
    scan_id     bigint NOT NULL UNIQUE,
    product_id  uuid NOT NULL,
    rating      smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body        text NOT NULL CHECK (length(body) <= 2000),
    created_at  timestamptz NOT NULL DEFAULT now(),
    hidden_at   timestamptz,
    hidden_by   uuid
);
CREATE INDEX reviews_created_idx ON reviews (created_at DESC);
-- A product's visible reviews, for its scan page and the brand's filter.
CREATE INDEX reviews_product_idx ON reviews (product_id, created_at DESC);
