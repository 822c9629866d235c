package io.lastcall.operator;

import io.lastcall.job.Job;
import io.lastcall.job.JobState;
import io.lastcall.job.Outcome;
import io.lastcall.job.RevisionOrder;
import io.lastcall.job.SubjectRevision;
import io.lastcall.schema.JobLocks;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;

/** What an operator may do to jobs, each in one transaction serialized with the gate by the job row lock. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class OperatorCommands {

    /** What a cancel request came to. */
    public enum CancelResult { CANCELED, ALREADY_CLAIMED, ALREADY_ENDED, UNKNOWN_JOB }

    /** An announced revision: what is on record now, and the jobs it superseded. */
    public record Supersession(String latestRevision, List<String> superseded) {
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    private Job lock(String jobId) {
        return em.find(Job.class, jobId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** Cancels a job that is not claimed yet; the row lock makes cancel and claim mutually exclusive. */
    public CancelResult cancel(String jobId, long now) {
        Job job = lock(jobId);
        if (job == null) {
            return CancelResult.UNKNOWN_JOB;
        }
        if (job.getState().isTerminal()) {
            return CancelResult.ALREADY_ENDED;
        }
        if (!job.getState().isPreClaim()) {
            return CancelResult.ALREADY_CLAIMED;
        }
        job.requestCancel();
        job.end(Outcome.CANCELED, now);
        return CancelResult.CANCELED;
    }

    /**
     * Announces a subject's newest revision: the subject's not-yet-claimed jobs of an older
     * revision ({@link RevisionOrder}) end SUPERSEDED. Announcing an older revision than the one
     * on record changes nothing; only claimable jobs are locked.
     */
    public Supersession supersede(String subject, String revision, long now) {
        SubjectRevision latest = em.find(SubjectRevision.class, subject, LockModeType.PESSIMISTIC_WRITE);
        if (latest == null) {
            latest = new SubjectRevision(subject, revision, now);
            em.persist(latest);
        } else {
            latest.announce(revision, now);
        }
        SubjectRevision announced = latest;
        // ids and revisions only: a job is read whole once it is locked, not before
        List<String> older = em.createQuery("select j.jobId, j.sourceRevision from Job j where j.subject = :s"
                        + " and j.state in :claimable", Object[].class).setParameter("s", subject)
                .setParameter("claimable", JobState.preClaimStates()).getResultList().stream()
                .filter(row -> announced.supersedes((String) row[1])).map(row -> (String) row[0]).toList();
        List<String> superseded = new ArrayList<>();
        for (Job job : JobLocks.lock(em, older)) {
            if (job.getState().isPreClaim()) {
                job.end(Outcome.SUPERSEDED, now);
                superseded.add(job.getJobId());
            }
        }
        return new Supersession(latest.getLatestRevision(), superseded);
    }
}
