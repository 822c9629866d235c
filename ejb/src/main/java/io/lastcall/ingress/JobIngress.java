package io.lastcall.ingress;

import io.lastcall.clock.ClockHealth;
import io.lastcall.dispatch.LedgerQueries;
import io.lastcall.job.Job;
import io.lastcall.policy.Pricing;
import io.lastcall.policy.PromptTokens;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.util.Optional;

/**
 * Submission (docs/design.md §2): clock health, validation, idempotent persist, then the reference is
 * published with a TTL of the remaining lifetime and confirmed ({@link JobPublisher}).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JobIngress {

    /** 201 for a new job, 200 for a repeat, else a rejection. */
    public record Outcome(int status, String jobId, Rejection rejection, String message) {
        static Outcome refused(Rejection rejection, String message) {
            return new Outcome(rejection.status(), null, rejection, message);
        }
    }

    /** Workloads whose accepted counter is known to exist. */
    private static final java.util.Set<String> COUNTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @EJB
    IngressLedger ledger;

    @EJB
    LedgerQueries queries;

    @EJB
    JobPublisher publisher;

    @EJB
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    /** @param principal the authenticated submitter, recorded on the job */
    public Outcome submit(JsonObject envelope, String principal) {
        if (!clockHealth.admits()) {
            ClockHealth.Reading reading = clockHealth.current();
            return Outcome.refused(Rejection.CLOCK_UNHEALTHY, "clock " + reading.status() + " against "
                    + reading.reference() + ": " + reading.detail() + "; admission is stopped");
        }
        long uncertainty = settings.clockUncertaintyMs() + clockHealth.extraMarginMs();
        long now = clock.millis();
        SubmissionValidator.Result result = SubmissionValidator.validate(envelope, now, uncertainty, settings::workload,
                settings.schemaVersions());
        if (!result.valid()) {
            return Outcome.refused(result.rejection(), result.message());
        }
        Submission s = result.submission();
        Optional<Outcome> repeat = repeatOf(s, principal);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Pricing pricing = settings.pricing();
        PromptTokens tokens = settings.promptTokens();
        long promptTokens = s.promptTexts().stream().mapToLong(tokens::message).sum();
        Job job = new Job(s.jobId(), s.workload(), s.schemaVersion(), now, s.expiresAt(), s.semantics(),
                s.minExecutionMs(), s.subject(), s.sourceRevision(), s.model(), s.payload(),
                pricing.estimate(s.model(), promptTokens, s.maxTokens(), s.choices()), pricing.revision())
                .submittedBy(principal);
        ensureCounter(job.getWorkload());
        try {
            ledger.accept(job);
        } catch (EJBException concurrentDuplicate) {
            return repeatOf(s, principal).orElseThrow(() -> concurrentDuplicate);
        }
        publisher.publish(job.getJobId(), job.getWorkload(), 0);
        return new Outcome(201, s.jobId(), null, null);
    }

    private void ensureCounter(String workload) {
        if (!COUNTED.contains(workload)) {
            try {
                ledger.ensureCounter(workload);
            } catch (EJBException createdConcurrently) {
                // another submission created it first
            }
            COUNTED.add(workload);
        }
    }

    /**
     * The same job_id again: the existing job, or a conflict if it asks for another deadline or
     * belongs to another submitter (whose job is not shown).
     */
    private Optional<Outcome> repeatOf(Submission s, String principal) {
        return queries.find(s.jobId()).map(existing -> !java.util.Objects.equals(existing.getSubmittedBy(), principal)
                ? Outcome.refused(Rejection.JOB_ID_TAKEN, "job_id " + s.jobId() + " belongs to another submitter")
                : existing.getExpiresAt() == s.expiresAt()
                ? new Outcome(200, existing.getJobId(), null, null)
                : new Outcome(Rejection.DEADLINE_CONFLICT.status(), existing.getJobId(), Rejection.DEADLINE_CONFLICT,
                        "job " + s.jobId() + " exists with expires_at " + existing.getExpiresAt()
                                + "; a repeat cannot change its deadline"));
    }
}
