-- The ledger as lastcall 0.1 created it (EclipseLink create-or-extend-tables, PostgreSQL); a database
-- made by that release is baselined at this version and not touched by it.
CREATE TABLE lc_attempt (
    attempt_id character varying(64) NOT NULL,
    boot_id character varying(64),
    check_to_handoff_ms bigint,
    check_to_wire_ms bigint,
    claimed_at bigint NOT NULL,
    completion_tokens bigint,
    cost numeric(19,6),
    error character varying(1000),
    estimate numeric(19,6) NOT NULL,
    estimate_revision character varying(64) NOT NULL,
    finished_at bigint,
    generation bigint NOT NULL,
    handed_off_at bigint,
    http_status integer,
    instance_id character varying(128),
    job_id character varying(128) NOT NULL,
    late boolean NOT NULL,
    prompt_tokens bigint,
    reserved numeric(19,6) NOT NULL,
    result text,
    retryable boolean NOT NULL,
    state character varying(16) NOT NULL,
    usage_missing boolean NOT NULL,
    workload character varying(64) NOT NULL
);

CREATE TABLE lc_budget_lock (
    workload character varying(64) NOT NULL,
    claims bigint NOT NULL
);

CREATE TABLE lc_delivery (
    id bigint NOT NULL,
    body text,
    message_id character varying(200) NOT NULL,
    queue_name character varying(255) NOT NULL,
    received_at bigint NOT NULL,
    redelivered boolean NOT NULL
);

CREATE SEQUENCE lc_delivery_seq
    START WITH 50
    INCREMENT BY 50
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

CREATE TABLE lc_job (
    job_id character varying(128) NOT NULL,
    accepted_at bigint NOT NULL,
    cancel_requested boolean NOT NULL,
    checked_at bigint,
    deadline_semantics character varying(32) NOT NULL,
    estimate numeric(19,6) NOT NULL,
    estimate_revision character varying(64) NOT NULL,
    expires_at bigint NOT NULL,
    finished_at bigint,
    generation bigint NOT NULL,
    handed_off_at bigint,
    min_execution_ms bigint NOT NULL,
    model character varying(128) NOT NULL,
    payload text NOT NULL,
    permit_at bigint,
    publish_requested_at bigint,
    published_at bigint,
    reason character varying(64),
    received_at bigint,
    row_version bigint NOT NULL,
    schema_version integer NOT NULL,
    source_revision character varying(255) NOT NULL,
    state character varying(32) NOT NULL,
    subject character varying(255) NOT NULL,
    submitted_by character varying(128),
    workload character varying(64) NOT NULL
);

CREATE TABLE lc_quarantine (
    id bigint NOT NULL,
    body text,
    detail character varying(1000),
    job_id character varying(128),
    message_id character varying(200),
    quarantined_at bigint NOT NULL,
    queue_name character varying(255),
    reason character varying(64) NOT NULL
);

CREATE SEQUENCE lc_quarantine_seq
    START WITH 20
    INCREMENT BY 20
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

CREATE TABLE lc_subject (
    subject character varying(255) NOT NULL,
    latest_revision character varying(255) NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE lc_workload_counter (
    workload character varying(64) NOT NULL,
    accepted bigint NOT NULL
);

ALTER TABLE ONLY lc_attempt
    ADD CONSTRAINT lc_attempt_pkey PRIMARY KEY (attempt_id);

ALTER TABLE ONLY lc_budget_lock
    ADD CONSTRAINT lc_budget_lock_pkey PRIMARY KEY (workload);

ALTER TABLE ONLY lc_delivery
    ADD CONSTRAINT lc_delivery_pkey PRIMARY KEY (id);

ALTER TABLE ONLY lc_job
    ADD CONSTRAINT lc_job_pkey PRIMARY KEY (job_id);

ALTER TABLE ONLY lc_quarantine
    ADD CONSTRAINT lc_quarantine_pkey PRIMARY KEY (id);

ALTER TABLE ONLY lc_subject
    ADD CONSTRAINT lc_subject_pkey PRIMARY KEY (subject);

ALTER TABLE ONLY lc_workload_counter
    ADD CONSTRAINT lc_workload_counter_pkey PRIMARY KEY (workload);

CREATE INDEX lc_attempt_job ON lc_attempt USING btree (job_id);

CREATE INDEX lc_delivery_queue ON lc_delivery USING btree (queue_name, id);

CREATE INDEX lc_job_accepted ON lc_job USING btree (accepted_at, job_id);

CREATE INDEX lc_job_owed ON lc_job USING btree (publish_requested_at);

CREATE INDEX lc_job_state ON lc_job USING btree (state, expires_at);

CREATE INDEX lc_job_subject ON lc_job USING btree (subject);

