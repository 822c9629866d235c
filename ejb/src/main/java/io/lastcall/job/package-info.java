/**
 * The job record and its rules, free of container plumbing: {@link io.lastcall.job.JobState}
 * (the one state machine), {@link io.lastcall.job.Deadline} (the one deadline arithmetic),
 * {@link io.lastcall.job.GateDecision} (what the final gate decides), the
 * {@link io.lastcall.job.Reference} a broker message carries, and the entities
 * {@link io.lastcall.job.Job}, {@link io.lastcall.job.Attempt} and
 * {@link io.lastcall.job.QuarantinedMessage}.
 */
package io.lastcall.job;
