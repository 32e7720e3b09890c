-- Batch data by slot of a code job's positions (issue 10, ADR 0017).
--
-- `code_batches` held one row per code: a million-row update wrote a million
-- primary-key entries, which alone took longer than the target of three raw
-- COPYs of the file. A file assigns codes of a few code jobs, usually in long
-- runs of positions, so the batch data is now kept per slot: the codes of
-- one job whose positions share `position >> 9` (512 positions), with one
-- batch of one update. A row lists the slot's codes that got that batch as
-- their offsets in the slot (`position & 511`). A million-code update writes
-- about 2,000 such rows (a few more when batches alternate within slots).
--
-- A code's batch data is that of the newest batch (highest `batch_id`; the
-- writes of updates are serialised, so this is the last applied) whose row
-- for the code's slot lists the code's offset. Earlier updates' rows stay:
-- they are the code's history.

CREATE TABLE batch_slots (
    job_seq   integer NOT NULL,
    -- position >> 9
    slot      integer NOT NULL CHECK (slot >= 0),
    batch_id  bigint NOT NULL REFERENCES batches (id),
    -- position & 511, of each code of the slot given this batch.
    offsets   smallint[] NOT NULL CHECK (cardinality(offsets) BETWEEN 1 AND 512),
    PRIMARY KEY (job_seq, slot, batch_id)
);

INSERT INTO batch_slots (job_seq, slot, batch_id, offsets)
SELECT c.job_seq, c.position >> 9, cb.batch_id, array_agg((c.position & 511)::smallint ORDER BY c.position)
FROM code_batches cb
JOIN codes c ON c.serial = cb.serial
GROUP BY c.job_seq, c.position >> 9, cb.batch_id;

DROP TABLE code_batches;
