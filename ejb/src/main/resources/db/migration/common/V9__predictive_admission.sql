-- Predictive admission (io.lastcall.metrics.ModelLatencies, the final gate): what a job's answer
-- may be long (max_tokens x n, its latency class beside the model), and when the model's live p95
-- latency said, at its last claim or its refusal, that the answer would arrive (epoch ms; after
-- expires_at: predicted late).
ALTER TABLE lc_job ADD COLUMN output_tokens BIGINT;
ALTER TABLE lc_job ADD COLUMN predicted_answer_at BIGINT;
-- the same forecast for the rolled-up jobs: how many of each group it named late, and their cost
ALTER TABLE lc_ended_totals ADD COLUMN predicted_late_jobs BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE lc_ended_totals ADD COLUMN predicted_late_cost NUMERIC(19, 6) DEFAULT 0 NOT NULL;
