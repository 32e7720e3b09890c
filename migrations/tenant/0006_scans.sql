-- Scans (issue 9): what happens when a consumer opens a code's GS1 Digital
-- Link URI on the public resolver.
--
-- Designed for tens of millions of scans per tenant and a dashboard that
-- stays fast:
-- * `scans` keeps every scan (the raw record: time, code, product, lot,
--   verdict, first-or-repeat, user-agent class, place with its source). It
--   has one index, its key, which is also its time order (ids grow), so the
--   newest scans are read from the end of the key.
-- * `code_scan_state` is one row per scanned code: its count and where and
--   when it was last scanned. The resolver's verdict (genuine or suspicious)
--   comes from this row, updated in the same statement that counts the scan,
--   so parallel scans of one code queue on its row and each sees the count
--   the one before it left.
-- * `scan_rollup` counts scans per day, product and place; every dashboard
--   figure is a sum over it (a few thousand rows for a year), never a scan
--   of `scans`. It is written in the same transaction as the scan.
-- * `scan_bots` counts bots and link-preview fetchers per day, apart: they
--   are not scans.

-- The tenant's rules for the `suspicious` verdict: a code scanned more than
-- `suspicious_scan_count` times, or scanned twice within
-- `suspicious_window_hours` from places more than `suspicious_distance_km`
-- apart.
ALTER TABLE org_settings
    ADD COLUMN suspicious_scan_count   integer NOT NULL DEFAULT 5 CHECK (suspicious_scan_count BETWEEN 1 AND 1000),
    ADD COLUMN suspicious_distance_km  integer NOT NULL DEFAULT 500 CHECK (suspicious_distance_km BETWEEN 1 AND 20000),
    ADD COLUMN suspicious_window_hours integer NOT NULL DEFAULT 24 CHECK (suspicious_window_hours BETWEEN 1 AND 720);

CREATE TABLE code_scan_state (
    serial      bigint PRIMARY KEY,
    product_id  uuid NOT NULL,
    scans       integer NOT NULL CHECK (scans >= 1),
    -- Once suspicious, always: a cloned code stays under suspicion.
    suspicious  boolean NOT NULL DEFAULT false,
    first_at    timestamptz NOT NULL,
    last_at     timestamptz NOT NULL,
    last_lat    real,
    last_lon    real
);
-- The most scanned codes (the spec's `scan` list).
CREATE INDEX code_scan_state_scans_idx ON code_scan_state (scans DESC);

CREATE TABLE scans (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scanned_at    timestamptz NOT NULL DEFAULT now(),
    -- NULL when the URI named no code of this tenant (not_recognised).
    serial        bigint,
    -- The URI as scanned (GTIN-14, lot, serial), for not recognised ones.
    gtin          text NOT NULL CHECK (gtin ~ '^[0-9]{14}$'),
    lot           text CHECK (length(lot) <= 20),
    serial_text   text NOT NULL CHECK (length(serial_text) BETWEEN 1 AND 20),
    product_id    uuid,
    verdict       text NOT NULL CHECK (verdict IN ('genuine', 'suspicious', 'not_recognised')),
    -- NULL when the URI named no code (not_recognised).
    first_scan    boolean,
    agent_class   text NOT NULL CHECK (agent_class IN ('mobile', 'tablet', 'desktop', 'other')),
    country       text NOT NULL DEFAULT '' CHECK (length(country) <= 2),
    country_name  text NOT NULL DEFAULT '' CHECK (length(country_name) <= 100),
    region        text NOT NULL DEFAULT '' CHECK (length(region) <= 100),
    city          text NOT NULL DEFAULT '' CHECK (length(city) <= 100),
    lat           real,
    lon           real,
    -- Where the place came from: an IP database, the consumer's browser
    -- (with consent), or nowhere.
    location_source text NOT NULL DEFAULT 'none' CHECK (location_source IN ('ip', 'browser', 'none')),
    -- The radius, in km, the place is right within (the IP database's
    -- accuracy radius, or the browser's accuracy).
    location_accuracy_km integer
);

CREATE TABLE scan_rollup (
    day            date NOT NULL,
    -- The nil UUID for scans of no known product.
    product_id     uuid NOT NULL,
    country        text NOT NULL,
    country_name   text NOT NULL,
    region         text NOT NULL,
    city           text NOT NULL,
    lat            real,
    lon            real,
    scans          bigint NOT NULL DEFAULT 0,
    first_scans    bigint NOT NULL DEFAULT 0,
    genuine        bigint NOT NULL DEFAULT 0,
    suspicious     bigint NOT NULL DEFAULT 0,
    not_recognised bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (day, product_id, country, region, city)
);

CREATE TABLE scan_bots (
    day   date PRIMARY KEY,
    hits  bigint NOT NULL DEFAULT 0
);
