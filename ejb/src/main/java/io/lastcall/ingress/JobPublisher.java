package io.lastcall.ingress;

import io.lastcall.dispatch.LedgerQueries;
import io.lastcall.clock.ClockHealth;
import io.lastcall.job.Deadline;
import io.lastcall.job.Job;
import io.lastcall.job.Reference;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;

/**
 * Publishes a job's reference with a TTL of its remaining dispatchable lifetime (capped by the
 * workload's TTL cap), directly to its workload queue or through a retry tier, and records the confirm. No
 * lifetime left → EXPIRED_NOT_STARTED / BEFORE_PUBLISH, nothing published. Used by ingress,
 * retries and the reconciler; no transaction spans the publish.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class JobPublisher {

    @EJB
    IngressLedger ledger;

    @EJB
    LedgerQueries queries;

    @EJB
    ReferencePublisher publisher;

    @EJB
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    /** @param retryTierMs 0 for the workload queue itself */
    public boolean publish(String jobId, String workload, long retryTierMs) {
        Optional<Job> job = queries.find(jobId).filter(j -> !j.getState().isTerminal());
        if (job.isEmpty()) {
            return false;
        }
        long remaining = job.get().remainingForDispatch(clock.millis(),
                settings.clockUncertaintyMs() + clockHealth.extraMarginMs());
        long ttl = Deadline.publishTtlMs(remaining, settings.workloadOrDefault(workload).ttlCapMs());
        if (ttl < 1) {
            ledger.expireBeforePublish(jobId, clock.millis());
            return false;
        }
        Reference reference = new Reference(jobId, job.get().getGeneration(), job.get().getExpiresAt(),
                job.get().getSchemaVersion());
        boolean confirmed = retryTierMs > 0
                ? publisher.publishRetry(reference, workload, retryTierMs, ttl)
                : publisher.publish(reference, workload, ttl);
        if (confirmed) {
            ledger.published(jobId, clock.millis());
        }
        return confirmed;
    }
}
