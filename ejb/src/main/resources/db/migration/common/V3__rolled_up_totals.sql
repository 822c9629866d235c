-- Roll-up (io.lastcall.reconcile.RollUpEndedJobs): an ended job's figures never change, so the
-- reconciler adds those of jobs that ended up to a point in time to lc_ended_totals and moves that
-- point (lc_rollup.rolled_up_to, epoch ms) on; the stats read the totals plus the jobs that ended
-- after it and those still in flight, never the whole ledger. No job row is written for it.
-- Retention's totals were the same figures for purged jobs (which are rolled up first now): the
-- table keeps them under its new name.
ALTER TABLE lc_purged_totals RENAME TO lc_ended_totals;
ALTER TABLE lc_ended_totals ADD COLUMN double_claims BIGINT DEFAULT 0 NOT NULL;
CREATE TABLE lc_rollup (
    id INTEGER NOT NULL PRIMARY KEY,
    rolled_up_to BIGINT NOT NULL
);
INSERT INTO lc_rollup (id, rolled_up_to) VALUES (1, 0);
