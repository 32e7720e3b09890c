-- Batch updates (issue 10) run as background jobs of their own kind.
ALTER TABLE platform.job_queue DROP CONSTRAINT job_queue_kind_check;
ALTER TABLE platform.job_queue ADD CONSTRAINT job_queue_kind_check
    CHECK (kind IN ('codes', 'labels', 'batch_updates'));
