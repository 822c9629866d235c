-- The ledger as lastcall 0.1 created it (EclipseLink create-or-extend-tables, H2); a database
-- made by that release is baselined at this version and not touched by it.
CREATE TABLE lc_attempt (
    attempt_id VARCHAR(64) NOT NULL,
    boot_id VARCHAR(64),
    check_to_handoff_ms BIGINT,
    check_to_wire_ms BIGINT,
    claimed_at BIGINT NOT NULL,
    completion_tokens BIGINT,
    cost NUMERIC(19,6),
    error VARCHAR(1000),
    estimate NUMERIC(19,6) NOT NULL,
    estimate_revision VARCHAR(64) NOT NULL,
    finished_at BIGINT,
    generation BIGINT NOT NULL,
    handed_off_at BIGINT,
    http_status INTEGER,
    instance_id VARCHAR(128),
    job_id VARCHAR(128) NOT NULL,
    late BOOLEAN NOT NULL,
    prompt_tokens BIGINT,
    reserved NUMERIC(19,6) NOT NULL,
    result CLOB,
    retryable BOOLEAN NOT NULL,
    state VARCHAR(16) NOT NULL,
    usage_missing BOOLEAN NOT NULL,
    workload VARCHAR(64) NOT NULL
);

CREATE TABLE lc_budget_lock (
    workload VARCHAR(64) NOT NULL,
    claims BIGINT NOT NULL
);

CREATE TABLE lc_delivery (
    id BIGINT NOT NULL,
    body CLOB,
    message_id VARCHAR(200) NOT NULL,
    queue_name VARCHAR(255) NOT NULL,
    received_at BIGINT NOT NULL,
    redelivered BOOLEAN NOT NULL
);

CREATE SEQUENCE lc_delivery_seq
    START WITH 50
    INCREMENT BY 50;

CREATE TABLE lc_job (
    job_id VARCHAR(128) NOT NULL,
    accepted_at BIGINT NOT NULL,
    cancel_requested BOOLEAN NOT NULL,
    checked_at BIGINT,
    deadline_semantics VARCHAR(32) NOT NULL,
    estimate NUMERIC(19,6) NOT NULL,
    estimate_revision VARCHAR(64) NOT NULL,
    expires_at BIGINT NOT NULL,
    finished_at BIGINT,
    generation BIGINT NOT NULL,
    handed_off_at BIGINT,
    min_execution_ms BIGINT NOT NULL,
    model VARCHAR(128) NOT NULL,
    payload CLOB NOT NULL,
    permit_at BIGINT,
    publish_requested_at BIGINT,
    published_at BIGINT,
    reason VARCHAR(64),
    received_at BIGINT,
    row_version BIGINT NOT NULL,
    schema_version INTEGER NOT NULL,
    source_revision VARCHAR(255) NOT NULL,
    state VARCHAR(32) NOT NULL,
    subject VARCHAR(255) NOT NULL,
    submitted_by VARCHAR(128),
    workload VARCHAR(64) NOT NULL
);

CREATE TABLE lc_quarantine (
    id BIGINT NOT NULL,
    body CLOB,
    detail VARCHAR(1000),
    job_id VARCHAR(128),
    message_id VARCHAR(200),
    quarantined_at BIGINT NOT NULL,
    queue_name VARCHAR(255),
    reason VARCHAR(64) NOT NULL
);

CREATE SEQUENCE lc_quarantine_seq
    START WITH 20
    INCREMENT BY 20;

CREATE TABLE lc_subject (
    subject VARCHAR(255) NOT NULL,
    latest_revision VARCHAR(255) NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE lc_workload_counter (
    workload VARCHAR(64) NOT NULL,
    accepted BIGINT NOT NULL
);

ALTER TABLE lc_attempt
    ADD CONSTRAINT lc_attempt_pkey PRIMARY KEY (attempt_id);

ALTER TABLE lc_budget_lock
    ADD CONSTRAINT lc_budget_lock_pkey PRIMARY KEY (workload);

ALTER TABLE lc_delivery
    ADD CONSTRAINT lc_delivery_pkey PRIMARY KEY (id);

ALTER TABLE lc_job
    ADD CONSTRAINT lc_job_pkey PRIMARY KEY (job_id);

ALTER TABLE lc_quarantine
    ADD CONSTRAINT lc_quarantine_pkey PRIMARY KEY (id);

ALTER TABLE lc_subject
    ADD CONSTRAINT lc_subject_pkey PRIMARY KEY (subject);

ALTER TABLE lc_workload_counter
    ADD CONSTRAINT lc_workload_counter_pkey PRIMARY KEY (workload);

CREATE INDEX lc_attempt_job ON lc_attempt (job_id);

CREATE INDEX lc_delivery_queue ON lc_delivery (queue_name, id);

CREATE INDEX lc_job_accepted ON lc_job (accepted_at, job_id);

CREATE INDEX lc_job_owed ON lc_job (publish_requested_at);

CREATE INDEX lc_job_state ON lc_job (state, expires_at);

CREATE INDEX lc_job_subject ON lc_job (subject);

