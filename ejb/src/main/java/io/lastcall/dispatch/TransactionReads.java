package io.lastcall.dispatch;

import io.lastcall.job.BackendPause;
import io.lastcall.job.SubjectRevision;
import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the gates or handoffs of one transaction read besides their jobs' rows — the jobs' subject
 * revisions and their backends' pauses — each read once for the transaction: a group of N jobs
 * makes one query for its subjects and one per backend instead of N of each (a row that does not
 * exist is a query every time through {@code em.find}). A group reads them after locking its jobs,
 * as each job's own reads came after its lock. For the reading transactions only: the settlement
 * that records a pause does not go through it.
 */
final class TransactionReads {

    private final EntityManager em;
    /** A subject without a revision row maps to null. */
    private final Map<String, SubjectRevision> subjects = new HashMap<>();
    private final Map<String, Long> pauses = new HashMap<>();

    TransactionReads(EntityManager em) {
        this.em = em;
    }

    /** Reads the revisions of these subjects in one query, remembering those that have none. */
    TransactionReads withSubjects(Collection<String> keys) {
        List<String> unread = keys.stream().filter(k -> !subjects.containsKey(k)).distinct().toList();
        if (unread.size() > 1) {
            unread.forEach(k -> subjects.put(k, null));
            em.createQuery("select s from SubjectRevision s where s.subject in :subjects", SubjectRevision.class)
                    .setParameter("subjects", unread).getResultList().forEach(s -> subjects.put(s.getSubject(), s));
        }
        return this;
    }

    /** The subject's latest revision, or null if it has none. */
    SubjectRevision subject(String key) {
        if (!subjects.containsKey(key)) {
            subjects.put(key, em.find(SubjectRevision.class, key));
        }
        return subjects.get(key);
    }

    /** Until when (epoch ms) the backend asked every server not to call it; 0 if it did not. */
    long pausedUntil(String backend) {
        if (backend == null) {
            return 0;
        }
        return pauses.computeIfAbsent(backend, key -> {
            BackendPause pause = em.find(BackendPause.class, key);
            return pause == null ? 0L : pause.getPausedUntil();
        });
    }
}
