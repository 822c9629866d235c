package io.lastcall.dispatch;

import io.lastcall.clock.ClockHealth;
import io.lastcall.ingress.JobPublisher;
import io.lastcall.job.Job;
import io.lastcall.policy.Settings;
import io.lastcall.receipt.ReceivedMessage;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Stale expiries from the dead-letter queue, recorded together: after an outage half a backlog
 * can be stale, and one transaction per dead letter would compete with the fresh half's drain.
 * Every {@value #FLUSH_MS} ms up to {@value #BATCH} are recorded in one transaction
 * ({@link DeadLetterLedger#deadLetteredAll}: their jobs locked in one query, their delivery rows
 * and outcomes written in one flush). A message is acknowledged once buffered: a crash before the
 * flush loses only its delivery-log row, and the reconciler still ends its job EXPIRED_IN_BROKER
 * (rule 2). A batch the database does not take whole is recorded one message at a time; while the
 * database is down the batch waits, and the buffer, once full ({@value #CAPACITY}), sends new dead
 * letters down the one-at-a-time path, which holds them on the broker.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class StaleDeadLetters {

    static final int FLUSH_MS = 250;
    static final int BATCH = 500;
    static final int CAPACITY = 5_000;

    private static final Logger LOG = Logger.getLogger(StaleDeadLetters.class.getName());

    @Resource
    ManagedScheduledExecutorService scheduler;

    @EJB
    DeadLetterLedger ledger;

    @EJB
    DeadLetters deadLetters;

    @EJB
    FailureTriage triage;

    @EJB
    JobPublisher publisher;

    @Inject
    ClockHealth clockHealth;

    @Inject
    Settings settings;

    private final ConcurrentLinkedDeque<ReceivedMessage> buffer = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private ScheduledFuture<?> flushing;

    @PostConstruct
    void start() {
        flushing = scheduler.scheduleWithFixedDelay(this::flushAll, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
    }

    /** Takes the message for the next batch; false if the buffer is full (the caller records it itself). */
    public boolean offer(ReceivedMessage message) {
        if (size.incrementAndGet() > CAPACITY) {
            size.decrementAndGet();
            return false;
        }
        buffer.addLast(message);
        return true;
    }

    /** Dead letters taken but not yet recorded. */
    public int pending() {
        return size.get();
    }

    private void flushAll() {
        try {
            while (!buffer.isEmpty() && flush()) {
                // the next batch at once while there is a backlog
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Recording stale dead letters failed; retrying in " + FLUSH_MS + " ms", e);
        }
    }

    /** One batch; false if the database is not answering (the batch is back in the buffer). */
    private boolean flush() {
        List<ReceivedMessage> batch = new ArrayList<>(BATCH);
        for (ReceivedMessage m; batch.size() < BATCH && (m = buffer.pollFirst()) != null; ) {
            batch.add(m);
        }
        try {
            List<Job> owed = ledger.deadLetteredAll(batch, settings.schemaVersions(),
                    clockHealth.marginMs());
            size.addAndGet(-batch.size());
            // only if the ledger gives a job more lifetime than its message said; else the reconciler would
            owed.forEach(job -> publisher.publish(job.getJobId(), job.getWorkload(), 0));
            return true;
        } catch (RuntimeException whole) {
            if (triage.classify(whole, "recording " + batch.size() + " stale dead letters")
                    instanceof InfrastructureFailure) {
                putBack(batch);
                return false;
            }
            LOG.warning("A batch of " + batch.size() + " stale dead letters was not recorded whole (" + whole
                    + "); recording them one at a time");
        }
        for (int i = 0; i < batch.size(); i++) {
            try {
                deadLetters.recordOne(batch.get(i));
                size.decrementAndGet();
            } catch (RuntimeException down) {
                // recordOne quarantines what is the message's fault: what reaches here is the database's
                putBack(batch.subList(i, batch.size()));
                return false;
            }
        }
        return true;
    }

    private void putBack(List<ReceivedMessage> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            buffer.addFirst(batch.get(i));
        }
    }

    @PreDestroy
    void stop() {
        flushing.cancel(false);
        if (!buffer.isEmpty()) {
            flushAll();
        }
        if (!buffer.isEmpty()) {
            LOG.warning(buffer.size() + " stale dead letters were not recorded before shutdown; the reconciler ends"
                    + " their jobs EXPIRED_IN_BROKER");
        }
    }
}
