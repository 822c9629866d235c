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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        Optional<Outcome> closed = clockRefusal();
        if (closed.isPresent()) {
            return closed.get();
        }
        SubmissionValidator.Result result = validate(envelope);
        if (!result.valid()) {
            return Outcome.refused(result.rejection(), result.message());
        }
        Submission s = result.submission();
        Optional<Outcome> repeat = repeatOf(s, principal);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Job job = newJob(s, principal);
        ensureCounter(job.getWorkload());
        try {
            ledger.accept(job);
        } catch (EJBException concurrentDuplicate) {
            return repeatOf(s, principal).orElseThrow(() -> concurrentDuplicate);
        }
        publisher.publishAccepted(List.of(job));
        return new Outcome(201, s.jobId(), null, null);
    }

    /**
     * A batch (docs/design.md §2): each envelope validated on its own with the same answers as a
     * single submission (a job_id repeated within the batch answers as a repeat of its first
     * occurrence); the new jobs persisted in one transaction and published pipelined. One outcome
     * per envelope, in order.
     */
    public List<Outcome> submitAll(List<JsonObject> envelopes, String principal) {
        Optional<Outcome> closed = clockRefusal();
        if (closed.isPresent()) {
            return envelopes.stream().map(e -> closed.get()).toList();
        }
        Outcome[] outcomes = new Outcome[envelopes.size()];
        Map<Integer, Submission> valid = new LinkedHashMap<>();
        for (int i = 0; i < envelopes.size(); i++) {
            SubmissionValidator.Result result = validate(envelopes.get(i));
            if (result.valid()) {
                valid.put(i, result.submission());
            } else {
                outcomes[i] = Outcome.refused(result.rejection(), result.message());
            }
        }
        // the jobs some of these ids already name, in one query
        Map<String, Job> existing = queries.findAll(valid.values().stream().map(Submission::jobId).toList());
        Map<String, Submission> firstOfId = new HashMap<>();
        Map<Integer, Submission> fresh = new LinkedHashMap<>();
        valid.forEach((i, s) -> {
            Submission first = firstOfId.putIfAbsent(s.jobId(), s);
            if (first != null) {
                outcomes[i] = repeat(s, first.expiresAt(), "is earlier in this batch");
            } else if (existing.containsKey(s.jobId())) {
                outcomes[i] = repeatOf(s, existing.get(s.jobId()), principal);
            } else {
                fresh.put(i, s);
            }
        });
        List<Job> jobs = fresh.values().stream().map(s -> newJob(s, principal)).toList();
        jobs.stream().map(Job::getWorkload).distinct().forEach(this::ensureCounter);
        try {
            if (!jobs.isEmpty()) {
                ledger.acceptAll(jobs);
            }
            fresh.forEach((i, s) -> outcomes[i] = new Outcome(201, s.jobId(), null, null));
            publisher.publishAccepted(jobs);
        } catch (EJBException concurrentDuplicate) {
            // another request took one of these ids meanwhile: fall back to one by one
            fresh.forEach((i, s) -> outcomes[i] = submit(envelopes.get(i), principal));
        }
        return List.of(outcomes);
    }

    private Optional<Outcome> clockRefusal() {
        if (clockHealth.admits()) {
            return Optional.empty();
        }
        ClockHealth.Reading reading = clockHealth.current();
        return Optional.of(Outcome.refused(Rejection.CLOCK_UNHEALTHY, "clock " + reading.status() + " against "
                + reading.reference() + ": " + reading.detail() + "; admission is stopped"));
    }

    private SubmissionValidator.Result validate(JsonObject envelope) {
        long uncertainty = clockHealth.marginMs();
        return SubmissionValidator.validate(envelope, clock.millis(), uncertainty, settings::workload,
                settings.schemaVersions());
    }

    private Job newJob(Submission s, String principal) {
        Pricing pricing = settings.pricing();
        PromptTokens tokens = settings.promptTokens();
        long promptTokens = s.promptTexts().stream().mapToLong(tokens::message).sum();
        return new Job(s.jobId(), s.workload(), s.schemaVersion(), clock.millis(), s.expiresAt(), s.semantics(),
                s.minExecutionMs(), s.subject(), s.sourceRevision(), s.model(), s.payload(),
                pricing.estimate(s.model(), promptTokens, s.maxTokens(), s.choices()), pricing.revision())
                .submittedBy(principal);
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
        return queries.find(s.jobId()).map(existing -> repeatOf(s, existing, principal));
    }

    private static Outcome repeatOf(Submission s, Job existing, String principal) {
        return !java.util.Objects.equals(existing.getSubmittedBy(), principal)
                ? Outcome.refused(Rejection.JOB_ID_TAKEN, "job_id " + s.jobId() + " belongs to another submitter")
                : repeat(s, existing.getExpiresAt(), "exists");
    }

    /** A repeat of a job with deadline {@code existingExpiresAt}: 200, or 409 if it asks for another deadline. */
    private static Outcome repeat(Submission s, long existingExpiresAt, String where) {
        return existingExpiresAt == s.expiresAt() ? new Outcome(200, s.jobId(), null, null)
                : new Outcome(Rejection.DEADLINE_CONFLICT.status(), s.jobId(), Rejection.DEADLINE_CONFLICT,
                        "job " + s.jobId() + " " + where + " with expires_at " + existingExpiresAt
                                + "; a repeat cannot change its deadline");
    }
}
