package io.lastcall.ingress;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ledger.LedgerQueries;
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
import jakarta.json.JsonString;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Submission (docs/design.md §2): clock health, validation, idempotent persist, then the reference is
 * published with a TTL of the remaining lifetime and confirmed ({@link JobPublisher}).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JobIngress {

    /**
     * What ingress answered a submission: 201 for a new job, 200 for a repeat, else a rejection (not
     * a job's outcome). {@code accepted} is a new job as this submission left it (stored, and
     * QUEUED once the broker confirmed it), so that the answer needs no read of its own; null otherwise.
     */
    public record Verdict(int status, String jobId, Rejection rejection, String message, Job accepted) {
        Verdict(int status, String jobId, Rejection rejection, String message) {
            this(status, jobId, rejection, message, null);
        }

        static Verdict refused(Rejection rejection, String message) {
            return new Verdict(rejection.status(), null, rejection, message);
        }

        static Verdict accepted(Job job) {
            return new Verdict(201, job.getJobId(), null, null, job);
        }
    }

    /** Workloads whose accepted counter is known to exist. */
    private static final Set<String> COUNTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @EJB
    IngressLedger ledger;

    @EJB
    LedgerQueries queries;

    @EJB
    JobPublisher publisher;

    @EJB
    SubmissionGroups groups;

    @Inject
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    /** @param principal the authenticated submitter, recorded on the job */
    public Verdict submit(JsonObject envelope, String principal) {
        Optional<Verdict> closed = clockRefusal();
        if (closed.isPresent()) {
            return closed.get();
        }
        SubmissionValidator.Result result = validate(envelope);
        if (!result.valid()) {
            return Verdict.refused(result.rejection(), result.message());
        }
        Submission s = result.submission();
        Job job = newJob(s, principal);
        ensureCounter(job.getWorkload());
        // the store finds a job_id already taken in its own transaction: a repeat is then read and answered
        Optional<Boolean> grouped = groups.accept(job);
        if (grouped.isPresent()) {
            return grouped.get() ? Verdict.accepted(job) : repeat(s, principal);
        }
        boolean stored;
        try {
            stored = ledger.accept(job);
        } catch (EJBException concurrentDuplicate) {
            return repeatOf(s, principal).orElseThrow(() -> concurrentDuplicate);
        }
        if (!stored) {
            return repeat(s, principal);
        }
        publisher.publishAccepted(List.of(job));
        return Verdict.accepted(job);
    }

    /**
     * A batch (docs/design.md §2): each envelope validated on its own with the same answers as a
     * single submission (a job_id repeated within the batch answers as a repeat of its first
     * occurrence); the new jobs persisted in one transaction and published pipelined. One outcome
     * per envelope, in order.
     */
    public List<Verdict> submitAll(List<JsonObject> envelopes, String principal) {
        Optional<Verdict> closed = clockRefusal();
        if (closed.isPresent()) {
            return envelopes.stream().map(e -> closed.get()).toList();
        }
        Verdict[] outcomes = new Verdict[envelopes.size()];
        Map<Integer, Submission> valid = new LinkedHashMap<>();
        // a job_id seen earlier in this batch: its later occurrences answer as repeats of the first
        Map<String, Integer> firstIndexOfId = new HashMap<>();
        Map<Integer, Integer> repeats = new LinkedHashMap<>();
        for (int i = 0; i < envelopes.size(); i++) {
            String id = envelopes.get(i).get("job_id") instanceof JsonString s ? s.getString() : null;
            Integer first = id == null ? null : firstIndexOfId.putIfAbsent(id, i);
            if (first != null) {
                repeats.put(i, first);
                continue;
            }
            SubmissionValidator.Result result = validate(envelopes.get(i));
            if (result.valid()) {
                valid.put(i, result.submission());
            } else {
                outcomes[i] = Verdict.refused(result.rejection(), result.message());
            }
        }
        List<Job> jobs = valid.values().stream().map(s -> newJob(s, principal)).toList();
        jobs.stream().map(Job::getWorkload).distinct().forEach(this::ensureCounter);
        Set<String> taken = null;
        try {
            // the storing transaction finds the ids already taken itself: no read before it
            taken = jobs.isEmpty() ? Set.of() : ledger.acceptAll(jobs);
        } catch (EJBException concurrentDuplicate) {
            // another request took one of these ids meanwhile: fall back to one by one
            valid.forEach((i, s) -> outcomes[i] = submit(envelopes.get(i), principal));
        }
        if (taken != null) {
            // the taken ids are repeats, answered from their jobs (one query, only when there are any)
            Set<String> repeated = taken;
            Map<String, Job> existing = repeated.isEmpty() ? Map.of() : queries.findAll(repeated);
            valid.forEach((i, s) -> outcomes[i] = !repeated.contains(s.jobId()) ? new Verdict(201, s.jobId(), null, null)
                    : repeat(s, Optional.ofNullable(existing.get(s.jobId())), principal));
            publisher.publishAccepted(jobs.stream().filter(job -> !repeated.contains(job.getJobId())).toList());
        }
        repeats.forEach((i, first) -> outcomes[i] = repeatInBatch(envelopes.get(i), valid.get(first), outcomes[first]));
        return List.of(outcomes);
    }

    /**
     * A later occurrence of a job_id in one batch: refused as its first occurrence was, else a repeat
     * of it (200, or 409 when it names another deadline), or refused for its own sake.
     */
    private Verdict repeatInBatch(JsonObject envelope, Submission first, Verdict firstOutcome) {
        if (first == null || firstOutcome.rejection() != null) {
            return firstOutcome;
        }
        SubmissionValidator.Result result = validate(envelope);
        if (!result.valid()) {
            return Verdict.refused(result.rejection(), result.message());
        }
        return repeat(result.submission(), first.deadline().expiresAt(), "is earlier in this batch");
    }

    private Optional<Verdict> clockRefusal() {
        if (clockHealth.admits()) {
            return Optional.empty();
        }
        ClockHealth.Reading reading = clockHealth.current();
        if (reading.status() == ClockHealth.Status.UNKNOWN && "database".equals(reading.reference())) {
            // the reference is the ledger itself: what does not answer is the database, and that is the cause to give
            return Optional.of(Verdict.refused(Rejection.LEDGER_UNAVAILABLE, "the ledger database did not answer ("
                    + reading.detail() + "); retry: submitting the same envelope again is safe"));
        }
        return Optional.of(Verdict.refused(Rejection.CLOCK_UNHEALTHY, "clock " + reading.status() + " against "
                + reading.reference() + ": " + reading.detail() + "; admission is stopped"));
    }

    private SubmissionValidator.Result validate(JsonObject envelope) {
        long uncertainty = clockHealth.marginMs();
        SubmissionValidator.Result result = SubmissionValidator.validate(envelope, clock.millis(), uncertainty,
                settings::workload, settings.schemaVersions());
        if (result.valid() && !settings.pricing().priced(result.submission().model())) {
            String model = result.submission().model();
            return new SubmissionValidator.Result(null, Rejection.PRICE_UNKNOWN, "model '" + model + "' has no price:"
                    + " set lastcall.price." + model + ".input-per-mtok and .output-per-mtok, or a default price for"
                    + " every model (lastcall.price.default.input-per-mtok and .output-per-mtok)");
        }
        return result;
    }

    private Job newJob(Submission s, String principal) {
        Pricing pricing = settings.pricing();
        PromptTokens tokens = settings.promptTokens();
        long promptTokens = s.promptTexts().stream().mapToLong(tokens::message).sum()
                + s.definitionTexts().stream().mapToLong(tokens::count).sum();
        return new Job(s.jobId(), s.workload(), s.schemaVersion(), clock.millis(), s.deadline(), s.subject(), s.sourceRevision(), s.model(), s.payload(),
                pricing.estimate(s.model(), promptTokens, s.maxTokens(), s.choices()), pricing.revision())
                .tokenEstimate(Pricing.tokens(promptTokens, s.maxTokens(), s.choices()))
                .outputTokens(Pricing.tokens(0, s.maxTokens(), s.choices())).submittedBy(principal)
                .tenant(s.tenant() != null ? s.tenant() : principal);
    }

    private void ensureCounter(String workload) {
        if (!COUNTED.contains(workload)) {
            try {
                ledger.ensureCounter(workload);
                COUNTED.add(workload);
            } catch (EJBException createdConcurrentlyOrLedgerAway) {
                // another submission created it first (the store then counts), or the database is away
                // (the store then fails too): either way the next submission looks again, so that a
                // first submission while the database is down does not leave the workload uncounted
            }
        }
    }

    /** A job_id the store found taken: the existing job's answer (a 503 to retry if it was purged since). */
    private Verdict repeat(Submission s, String principal) {
        return repeat(s, queries.find(s.jobId()), principal);
    }

    private static Verdict repeat(Submission s, Optional<Job> existing, String principal) {
        return existing.map(job -> repeatOf(s, job, principal)).orElseGet(() -> Verdict.refused(
                Rejection.LEDGER_UNAVAILABLE, "job_id " + s.jobId() + " was taken and its job purged meanwhile;"
                        + " retry: submitting the same envelope again is safe"));
    }

    /**
     * The same job_id again: the existing job, or a conflict if it asks for another deadline or
     * belongs to another submitter (whose job is not shown).
     */
    private Optional<Verdict> repeatOf(Submission s, String principal) {
        return queries.find(s.jobId()).map(existing -> repeatOf(s, existing, principal));
    }

    private static Verdict repeatOf(Submission s, Job existing, String principal) {
        return !java.util.Objects.equals(existing.getSubmittedBy(), principal)
                ? Verdict.refused(Rejection.JOB_ID_TAKEN, "job_id " + s.jobId() + " belongs to another submitter")
                : repeat(s, existing.getExpiresAt(), "exists");
    }

    /** A repeat of a job with deadline {@code existingExpiresAt}: 200, or 409 if it asks for another deadline. */
    private static Verdict repeat(Submission s, long existingExpiresAt, String where) {
        return existingExpiresAt == s.deadline().expiresAt() ? new Verdict(200, s.jobId(), null, null)
                : new Verdict(Rejection.DEADLINE_CONFLICT.status(), s.jobId(), Rejection.DEADLINE_CONFLICT,
                        "job " + s.jobId() + " " + where + " with expires_at " + existingExpiresAt
                                + "; a repeat cannot change its deadline");
    }
}
