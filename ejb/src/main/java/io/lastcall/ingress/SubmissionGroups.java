package io.lastcall.ingress;

import io.lastcall.group.GroupCommit;
import io.lastcall.job.Job;
import io.lastcall.metrics.LastcallMetrics;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Single submissions in groups ({@link GroupCommit}): the new jobs of concurrent
 * {@code POST /api/jobs} are stored by one thread, all that are waiting (up to
 * {@code lastcall.ingress.group-max}) in one transaction (which also finds the job_ids already
 * taken: those requests answer as repeats), then published pipelined with one
 * confirm wait and recorded as published in one more — the path a batch takes. Each request
 * waits for its own job and answers for its own envelope. A group that is not stored whole (a
 * job_id another request took meanwhile, the database gone) leaves each job to its request,
 * which stores it alone as before; a publish that is not confirmed leaves the job owed, as alone.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class SubmissionGroups {

    /** Requests waiting at once beyond which a submission is stored alone. */
    static final int CAPACITY = 1_024;

    /**
     * Groups stored and published at once: with one, a request arriving while a group waits for
     * its confirms waited for that group and then its own, and single submissions on 8 client
     * threads went from 94/s to 50/s (./bench/run cost cc486e0, docs/performance.md).
     */
    static final int COMMITTERS = 4;

    @Resource
    ManagedThreadFactory threads;

    @EJB
    IngressLedger ledger;

    @EJB
    JobPublisher publisher;

    @Inject
    Settings settings;

    @Inject
    LastcallMetrics metrics;

    private GroupCommit<Job, Boolean> groups;

    @PostConstruct
    void start() {
        int max = settings.ingress().groupMax();
        if (max > 1) {
            groups = new GroupCommit<>("submission", max, CAPACITY, COMMITTERS, this::acceptAndPublish,
                    size -> metrics.groupCommitted("submission", size), threads);
        }
    }

    /**
     * True if the job was stored in a group (and its publish made, or left owed), false if its
     * job_id was already taken (a repeat), empty if the caller must store it alone.
     */
    public Optional<Boolean> accept(Job job) {
        return groups == null ? Optional.empty() : groups.submit(job);
    }

    private List<Boolean> acceptAndPublish(List<Job> jobs) {
        Set<String> taken = ledger.acceptAll(jobs);
        List<Job> stored = jobs.stream().filter(job -> !taken.contains(job.getJobId())).toList();
        if (!stored.isEmpty()) {
            publisher.publishAccepted(stored);
        }
        return jobs.stream().map(job -> !taken.contains(job.getJobId())).toList();
    }

    @PreDestroy
    void stop() {
        if (groups != null) {
            groups.stop();
        }
    }
}
