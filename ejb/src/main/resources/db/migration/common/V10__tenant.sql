-- Fair shares (the adapter's shareBy over the x-lastcall-tenant header): whose share a job counts
-- in, the envelope's tenant where its workload allows one, else the submitting user. Null for jobs
-- accepted before: they count as their submitted_by's.
ALTER TABLE lc_job ADD COLUMN tenant VARCHAR(128);
