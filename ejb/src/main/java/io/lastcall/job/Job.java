package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.math.BigDecimal;

/**
 * One accepted job (docs/design.md §1). {@code expiresAt} is set once, at ingress, and never changes.
 * State changes go through {@link #moveTo}, which asks {@link JobState}.
 */
@Entity
@Table(name = "lc_job", indexes = {
    @Index(name = "lc_job_state", columnList = "state, expires_at"),
    @Index(name = "lc_job_subject", columnList = "subject"),
    @Index(name = "lc_job_owed", columnList = "publish_requested_at"),
    @Index(name = "lc_job_accepted", columnList = "accepted_at, job_id")})
public class Job {

    @Id
    @Column(name = "job_id", length = 128)
    private String jobId;

    @Column(name = "workload", length = 64, nullable = false)
    private String workload;

    @Column(name = "schema_version", nullable = false)
    private int schemaVersion;

    @Column(name = "accepted_at", nullable = false)
    private long acceptedAt;

    @Column(name = "expires_at", nullable = false, updatable = false)
    private long expiresAt;

    @Enumerated(EnumType.STRING)
    @Column(name = "deadline_semantics", length = 32, nullable = false)
    private DeadlineSemantics deadlineSemantics;

    @Column(name = "min_execution_ms", nullable = false)
    private long minExecutionMs;

    @Column(name = "subject", length = 255, nullable = false)
    private String subject;

    @Column(name = "source_revision", length = 255, nullable = false)
    private String sourceRevision;

    @Enumerated(EnumType.STRING)
    @Column(name = "state", length = 32, nullable = false)
    private JobState state;

    @Column(name = "reason", length = 64)
    private String reason;

    @Column(name = "generation", nullable = false)
    private long generation;

    @Version
    @Column(name = "row_version", nullable = false)
    private long rowVersion;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(name = "estimate", precision = 19, scale = 6, nullable = false)
    private BigDecimal estimate;

    @Column(name = "estimate_revision", length = 64, nullable = false)
    private String estimateRevision;

    /** tokens a provider counts against its per-minute limit: the prompt's plus max_tokens × n (null before V8) */
    @Column(name = "token_estimate")
    private Long tokenEstimate;

    /** the most its answer may be billed for in output tokens: max_tokens × n (null before V9) */
    @Column(name = "output_tokens")
    private Long outputTokens;

    /** when the model's live latency said, at its last claim or its refusal, that its answer would arrive (epoch ms; null: no forecast) */
    @Column(name = "predicted_answer_at")
    private Long predictedAnswerAt;

    @Column(name = "model", length = 128, nullable = false)
    private String model;

    @Lob
    @Column(name = "payload", nullable = false)
    private String payload;

    @Column(name = "published_at")
    private Long publishedAt;
    @Column(name = "received_at")
    private Long receivedAt;
    @Column(name = "permit_at")
    private Long permitAt;
    @Column(name = "checked_at")
    private Long checkedAt;
    @Column(name = "handed_off_at")
    private Long handedOffAt;
    @Column(name = "finished_at")
    private Long finishedAt;
    /** Set while a publish of this job's reference is owed (at accept, at a retry); cleared on confirm. */
    @Column(name = "publish_requested_at")
    private Long publishRequestedAt;
    /** the authenticated user that submitted it: only that user (or an operator or viewer) sees it */
    @Column(name = "submitted_by", length = 128)
    private String submittedBy;
    /** whose share of the dispatch it counts in: the envelope's tenant, else the submitting user */
    @Column(name = "tenant", length = 128)
    private String tenant;

    protected Job() {
    }

    public Job(String jobId, String workload, int schemaVersion, long acceptedAt, Deadline deadline, String subject,
            String sourceRevision, String model, String payload, BigDecimal estimate, String estimateRevision) {
        this.jobId = jobId;
        this.workload = workload;
        this.schemaVersion = schemaVersion;
        this.acceptedAt = acceptedAt;
        this.expiresAt = deadline.expiresAt();
        this.deadlineSemantics = deadline.semantics();
        this.minExecutionMs = deadline.minExecutionMs();
        this.subject = subject;
        this.sourceRevision = sourceRevision;
        this.model = model;
        this.payload = payload;
        this.estimate = estimate;
        this.estimateRevision = estimateRevision;
        this.state = JobState.ACCEPTED;
        this.publishRequestedAt = acceptedAt;
    }

    /** The only way a job ends: its terminal state and reason at {@code at}. Nothing is owed a publish after it. */
    public void end(Outcome outcome, long at) {
        state = state.moveTo(outcome.state());
        reason = outcome.reason();
        finishedAt = at;
        publishRequestedAt = null;
    }

    /** The single dispatch claim: a new ownership generation. */
    public long claim(long checkedAt, Long permitAt) {
        state = state.moveTo(JobState.CLAIMED);
        this.checkedAt = checkedAt;
        this.permitAt = permitAt;
        return ++generation;
    }

    public Deadline deadline() {
        return new Deadline(expiresAt, deadlineSemantics, minExecutionMs);
    }

    public long remainingForDispatch(long now, long clockUncertaintyMs) {
        return deadline().remainingForDispatch(now, clockUncertaintyMs);
    }

    public void published(long at) {
        if (publishedAt == null) {
            publishedAt = at;
        }
        publishRequestedAt = null;
        if (state == JobState.ACCEPTED) {
            state = state.moveTo(JobState.QUEUED);
        }
    }

    /** A publish of the owed reference is being attempted now (so that a second reconciler waits its turn). */
    public void publishAttempted(long at) {
        publishRequestedAt = at;
    }

    /** Back to the queue for another attempt (a retry, or a claim revoked by the reconciler). */
    public void requeue(long at) {
        state = state.moveTo(JobState.QUEUED);
        publishRequestedAt = at;
    }

    public void received(long at) {
        if (receivedAt == null) {
            receivedAt = at;
        }
        state = state.moveTo(JobState.WAITING_PERMIT);
    }

    public void handedOff(long at) {
        state = state.moveTo(JobState.HANDED_OFF);
        handedOffAt = at;
    }

    public void requestCancel() {
        cancelRequested = true;
    }

    public String getJobId() { return jobId; }
    public String getWorkload() { return workload; }
    public int getSchemaVersion() { return schemaVersion; }
    public long getAcceptedAt() { return acceptedAt; }
    public long getExpiresAt() { return expiresAt; }
    public DeadlineSemantics getDeadlineSemantics() { return deadlineSemantics; }
    public long getMinExecutionMs() { return minExecutionMs; }
    public String getSubject() { return subject; }
    public String getSourceRevision() { return sourceRevision; }
    public JobState getState() { return state; }
    public String getReason() { return reason; }
    /** How it ended, read back as the value it was ended with; empty while it has not. */
    public java.util.Optional<Outcome> outcome() { return Outcome.of(state, reason); }
    public long getGeneration() { return generation; }
    public boolean isCancelRequested() { return cancelRequested; }
    public BigDecimal getEstimate() { return estimate; }
    public String getEstimateRevision() { return estimateRevision; }
    public long getTokenEstimate() { return tokenEstimate == null ? 0 : tokenEstimate; }
    public long getOutputTokens() { return outputTokens == null ? 0 : outputTokens; }
    public Long getPredictedAnswerAt() { return predictedAnswerAt; }
    public String getModel() { return model; }
    public String getPayload() { return payload; }
    public Long getPublishedAt() { return publishedAt; }
    public Long getReceivedAt() { return receivedAt; }
    public Long getPermitAt() { return permitAt; }
    public Long getCheckedAt() { return checkedAt; }
    public Long getHandedOffAt() { return handedOffAt; }
    public Long getFinishedAt() { return finishedAt; }
    public Long getPublishRequestedAt() { return publishRequestedAt; }
    public String getSubmittedBy() { return submittedBy; }
    /** The tenant; a job accepted before tenants were recorded counts as its submitting user's. */
    public String getTenant() { return tenantOf(tenant, submittedBy); }

    /** A job's tenant from its columns: a job accepted before tenants (0.x) counts as its submitter's. */
    public static String tenantOf(String tenant, String submittedBy) {
        return tenant != null ? tenant : submittedBy != null ? submittedBy : "";
    }

    /** Records the tokens its calls count against a provider's tokens-per-minute (set once, at ingress). */
    public Job tokenEstimate(long tokens) {
        this.tokenEstimate = tokens;
        return this;
    }

    /** Records the output tokens its answer may have, max_tokens × n (set once, at ingress). */
    public Job outputTokens(long tokens) {
        this.outputTokens = tokens;
        return this;
    }

    /** Records when the latency forecast at the gate said the answer would arrive. */
    public void predictedAnswerAt(long at) {
        this.predictedAnswerAt = at;
    }

    /** Records whose share it counts in (set once, at ingress). */
    public Job tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    /** Records who submitted it (set once, at ingress). */
    public Job submittedBy(String principal) {
        this.submittedBy = principal;
        return this;
    }
}
