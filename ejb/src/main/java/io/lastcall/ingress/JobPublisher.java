package io.lastcall.ingress;

import io.lastcall.ledger.LedgerQueries;
import io.lastcall.clock.ClockHealth;
import io.lastcall.job.Deadline;
import io.lastcall.job.Job;
import io.lastcall.job.Outcome;
import io.lastcall.job.Reference;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Publishes a job's reference with a TTL of its remaining dispatchable lifetime (capped by the
 * workload's TTL cap), directly to its workload queue or through a retry tier, and records the confirm. No
 * lifetime left → EXPIRED_NOT_STARTED / BEFORE_PUBLISH, nothing published. Used by ingress,
 * retries and the reconciler; no transaction spans the publish.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JobPublisher {

    private static final Logger LOG = Logger.getLogger(JobPublisher.class.getName());

    @EJB
    IngressLedger ledger;

    @EJB
    LedgerQueries queries;

    @EJB
    ReferencePublisher publisher;

    @Inject
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    /**
     * Publishes newly accepted jobs pipelined (one confirm wait for all) and records the confirmed
     * ones in one transaction; a job with no lifetime left ends EXPIRED_NOT_STARTED/BEFORE_PUBLISH.
     * What is not confirmed, or not recorded as confirmed, stays owed a publish, which the
     * reconciler makes: this never throws.
     */
    public void publishAccepted(List<Job> jobs) {
        try {
            List<ReferencePublisher.Outgoing> outgoing = jobs.stream().map(job -> outgoing(job, job.getWorkload()))
                    .flatMap(Optional::stream).toList();
            if (!outgoing.isEmpty()) {
                List<String> confirmed = publisher.publishAll(outgoing);
                if (!confirmed.isEmpty()) {
                    long at = clock.millis();
                    ledger.publishedAll(confirmed, at);
                    // the callers' copies answer their submissions: they say what the ledger now holds
                    Set<String> queued = Set.copyOf(confirmed);
                    jobs.stream().filter(job -> queued.contains(job.getJobId())).forEach(job -> job.published(at));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, jobs.size() + " accepted job(s) not published now (the reconciler publishes"
                    + " what is owed): " + e, e);
        }
    }

    /** @param retryTierMs 0 for the workload queue itself */
    public boolean publish(String jobId, String workload, long retryTierMs) {
        Optional<ReferencePublisher.Outgoing> outgoing = queries.find(jobId).filter(j -> !j.getState().isTerminal())
                .flatMap(job -> outgoing(job, workload));
        if (outgoing.isEmpty()) {
            return false;
        }
        boolean confirmed = retryTierMs > 0
                ? publisher.publishRetry(outgoing.get(), retryTierMs)
                : publisher.publish(outgoing.get());
        if (confirmed) {
            ledger.published(jobId, clock.millis());
        }
        return confirmed;
    }

    /**
     * The job's reference with the TTL of its remaining dispatchable lifetime (capped by the
     * workload's), or empty — the job then ended EXPIRED_NOT_STARTED/BEFORE_PUBLISH — when none is left.
     */
    private Optional<ReferencePublisher.Outgoing> outgoing(Job job, String workload) {
        long remaining = job.remainingForDispatch(clock.millis(),
                clockHealth.marginMs());
        long ttl = Deadline.publishTtlMs(remaining, settings.workloadOrDefault(workload).ttlCapMs());
        if (ttl < 1) {
            long at = clock.millis();
            ledger.expireBeforePublish(job.getJobId(), at);
            if (job.getState().isPreClaim()) {
                job.end(Outcome.EXPIRED_BEFORE_PUBLISH, at); // this copy too, as the ledger's row now is
            }
            return Optional.empty();
        }
        return Optional.of(new ReferencePublisher.Outgoing(new Reference(job.getJobId(), job.getGeneration(),
                job.getExpiresAt(), job.getSchemaVersion()), workload, ttl, job.getTenant()));
    }
}
