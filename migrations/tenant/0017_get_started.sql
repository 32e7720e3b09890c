-- The dashboard's "Get started" checklist (issue 21): who hid it. Its steps
-- are computed from the organisation's own tables; only the choice to hide
-- it is kept, per account, so it follows the person to another browser and
-- "Show get started" brings it back (the row is deleted).
-- account_id refers to platform.accounts(id); no foreign key, by design, so
-- the tenant schema stays self-contained (as user_preferences).
CREATE TABLE get_started_dismissals (
    account_id    uuid PRIMARY KEY,
    dismissed_at  timestamptz NOT NULL DEFAULT now()
);
