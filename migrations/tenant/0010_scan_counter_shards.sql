-- Scan counters that do not queue every scan behind one row (issue 9,
-- ingestion target; ADR 0014).
--
-- Every scan adds one to its day's rollup row (day, product, place), to the
-- day's consumers row and, for bots, to the day's bots row. With one row per
-- key, every parallel scan of a popular product waits for the one before it
-- to commit: ingestion was bounded by one commit at a time.
--
-- Each of these rows may now be split into shards: a writer adds to a shard
-- of the key that nobody else holds (`FOR UPDATE SKIP LOCKED`, in the
-- `*_shard` functions below, whose lock lasts until the writer's
-- transaction ends), and only opens a new shard when every existing one is
-- held. A quiet key keeps a
-- single row (shard 0); a busy one grows at most as many rows as writers
-- meet at once (at most 32). Every reader already sums over the rows of a
-- key, so a shard changes no figure.
--
-- Also: the most scanned codes are read `ORDER BY scans DESC, serial`; the
-- index now has both, so the first 100 come straight from it however many
-- codes share a count.

ALTER TABLE scan_rollup ADD COLUMN shard smallint NOT NULL DEFAULT 0
    CHECK (shard BETWEEN 0 AND 31);
ALTER TABLE scan_rollup DROP CONSTRAINT scan_rollup_pkey;
ALTER TABLE scan_rollup ADD PRIMARY KEY (day, product_id, country, region, city, shard);

ALTER TABLE consumer_rollup ADD COLUMN shard smallint NOT NULL DEFAULT 0
    CHECK (shard BETWEEN 0 AND 31);
ALTER TABLE consumer_rollup DROP CONSTRAINT consumer_rollup_pkey;
ALTER TABLE consumer_rollup ADD PRIMARY KEY (day, shard);

ALTER TABLE scan_bots ADD COLUMN shard smallint NOT NULL DEFAULT 0
    CHECK (shard BETWEEN 0 AND 31);
ALTER TABLE scan_bots DROP CONSTRAINT scan_bots_pkey;
ALTER TABLE scan_bots ADD PRIMARY KEY (day, shard);

-- The shard of a key to add to: the first one no other transaction holds
-- (now locked by this one), else 0 when the key has no row yet, else a
-- random one of 1..31 (which may wait, rarely, for its holder).
CREATE FUNCTION scan_rollup_shard(
    p_day date, p_product uuid, p_country text, p_region text, p_city text
) RETURNS smallint
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(
        (SELECT shard FROM scan_rollup
         WHERE day = p_day AND product_id = p_product AND country = p_country
           AND region = p_region AND city = p_city
         ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED),
        CASE WHEN EXISTS (SELECT FROM scan_rollup
                          WHERE day = p_day AND product_id = p_product AND country = p_country
                            AND region = p_region AND city = p_city)
             THEN (1 + floor(random() * 31))::smallint ELSE 0::smallint END)
$$;

CREATE FUNCTION consumer_rollup_shard(p_day date) RETURNS smallint
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(
        (SELECT shard FROM consumer_rollup WHERE day = p_day
         ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED),
        CASE WHEN EXISTS (SELECT FROM consumer_rollup WHERE day = p_day)
             THEN (1 + floor(random() * 31))::smallint ELSE 0::smallint END)
$$;

CREATE FUNCTION scan_bots_shard(p_day date) RETURNS smallint
LANGUAGE sql VOLATILE AS $$
    SELECT coalesce(
        (SELECT shard FROM scan_bots WHERE day = p_day
         ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED),
        CASE WHEN EXISTS (SELECT FROM scan_bots WHERE day = p_day)
             THEN (1 + floor(random() * 31))::smallint ELSE 0::smallint END)
$$;

DROP INDEX code_scan_state_scans_idx;
CREATE INDEX code_scan_state_scans_idx ON code_scan_state (scans DESC, serial);
