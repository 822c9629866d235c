-- A model backend that asked not to be called until an instant (io.lastcall.job.BackendPause):
-- a 429's Retry-After or its rate-limit reset, read by every server's final gate.
CREATE TABLE lc_backend_pause (
    backend VARCHAR(255) NOT NULL PRIMARY KEY,
    paused_until BIGINT NOT NULL,
    paused_at BIGINT NOT NULL,
    http_status INTEGER
);

-- A refusal that paused its backend is the provider pacing its callers, not a failed attempt.
ALTER TABLE lc_attempt ADD COLUMN rate_limited BOOLEAN DEFAULT FALSE NOT NULL;
