-- The rows of a batch update that have problems (issue 21). `error_count`
-- counts problems, and one row may have several (a bad date and a missing
-- licence number), so "4 problems in 3 rows" could be said of a file of two
-- rows. `error_rows` counts the distinct rows (not the file as a whole,
-- row 0) with at least one problem, as the job found them.

ALTER TABLE batch_updates
    ADD COLUMN error_rows integer NOT NULL DEFAULT 0 CHECK (error_rows >= 0);

-- Earlier updates: the rows of the problems that were kept (the first
-- 1,000 problems; an update with more counts the rows among them).
UPDATE batch_updates u
SET error_rows = (
    SELECT count(DISTINCT e.row_number) FROM batch_update_errors e
    WHERE e.update_id = u.id AND e.row_number > 0
)
WHERE u.error_count > 0;
