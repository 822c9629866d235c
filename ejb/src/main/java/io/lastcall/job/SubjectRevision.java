package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The newest source revision announced for a subject; jobs of that subject with an older
 * revision ({@link RevisionOrder}) are superseded. An announcement never moves it backwards.
 */
@Entity
@Table(name = "lc_subject")
public class SubjectRevision {

    @Id
    @Column(name = "subject", length = 255)
    private String subject;

    @Column(name = "latest_revision", length = 255, nullable = false)
    private String latestRevision;

    @Column(name = "updated_at", nullable = false)
    private long updatedAt;

    protected SubjectRevision() {
    }

    public SubjectRevision(String subject, String revision, long at) {
        this.subject = subject;
        this.latestRevision = revision;
        this.updatedAt = at;
    }

    /** Records {@code revision} as the newest unless the one on record is newer or incomparable. */
    public void announce(String revision, long at) {
        if (RevisionOrder.isOlder(latestRevision, revision)) {
            latestRevision = revision;
            updatedAt = at;
        }
    }

    /** Whether a job of this subject at {@code revision} is outdated. */
    public boolean supersedes(String revision) {
        return RevisionOrder.isOlder(revision, latestRevision);
    }

    public String getSubject() { return subject; }
    public String getLatestRevision() { return latestRevision; }
    public long getUpdatedAt() { return updatedAt; }
}
