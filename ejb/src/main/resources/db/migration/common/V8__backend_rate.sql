-- What a rate-limited model backend has left of its per-minute limits (io.lastcall.job.BackendRate),
-- taken from by every server's final gate in the claim's transaction.
CREATE TABLE lc_backend_rate (
    backend VARCHAR(255) NOT NULL PRIMARY KEY,
    requests_left DOUBLE PRECISION NOT NULL,
    tokens_left DOUBLE PRECISION NOT NULL,
    refilled_at BIGINT NOT NULL
);

-- The tokens a job's call counts against a tokens-per-minute limit (prompt + max_tokens x n).
ALTER TABLE lc_job ADD COLUMN token_estimate BIGINT;
