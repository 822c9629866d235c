-- What retention purged but a budget still counts (io.lastcall.job.PurgedSpend): the cost and the
-- kept reservation of purged attempts, per workload and per hour of their claim. A budget period
-- (hour, day, month) starts on an hour, so its spend is the attempts still there plus these rows.
CREATE TABLE lc_purged_spend (
    spend_id VARCHAR(96) NOT NULL PRIMARY KEY,
    workload VARCHAR(64) NOT NULL,
    hour_start BIGINT NOT NULL,
    amount NUMERIC(19,6) NOT NULL
);
CREATE INDEX lc_purged_spend_workload_hour ON lc_purged_spend (workload, hour_start);
