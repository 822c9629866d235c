-- Retention: what the purge removes from lc_job and lc_attempt is first added here, so counts,
-- spend and avoided exposure survive it (io.lastcall.reconcile.PurgeEndedJobs). reason and
-- estimate_revision are '' rather than NULL so that they can be part of the key.
CREATE TABLE lc_purged_totals (
    workload VARCHAR(64) NOT NULL,
    state VARCHAR(32) NOT NULL,
    reason VARCHAR(64) NOT NULL,
    estimate_revision VARCHAR(64) NOT NULL,
    jobs BIGINT NOT NULL,
    estimate NUMERIC(19,6) NOT NULL,
    attempts BIGINT NOT NULL,
    cost NUMERIC(19,6) NOT NULL,
    reserved NUMERIC(19,6) NOT NULL,
    PRIMARY KEY (workload, state, reason, estimate_revision)
);

-- the purge finds its oldest rows through these
CREATE INDEX lc_job_finished ON lc_job (finished_at);
CREATE INDEX lc_delivery_received ON lc_delivery (received_at);
CREATE INDEX lc_quarantine_at ON lc_quarantine (quarantined_at);

-- stats and per-workload lists
CREATE INDEX lc_job_workload_state ON lc_job (workload, state);
CREATE INDEX lc_attempt_workload_claimed ON lc_attempt (workload, claimed_at);
