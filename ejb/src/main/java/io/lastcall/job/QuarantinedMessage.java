package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A broker message lastcall would not trust, kept with the reason, never silently dropped. */
@Entity
@Table(name = "lc_quarantine")
public class QuarantinedMessage {

    /** Machine-readable reasons. */
    public enum Reason {
        /** the body is not a reference (not JSON, fields missing or of the wrong type) */
        REFERENCE_MALFORMED,
        REFERENCE_UNKNOWN_JOB,
        /** the message's expires_at is not the ledger's: never trusted, never used to extend a deadline */
        REFERENCE_DEADLINE_MISMATCH,
        SCHEMA_UNSUPPORTED,
        /** the delivery could not be turned into a message at all (e.g. header names no JMS property may have) */
        MESSAGE_UNREADABLE,
        /** the dead-letter consumer could not record this message's job; kept here instead of being lost */
        DEAD_LETTER_UNRECORDABLE
    }

    @Id
    @SequenceGenerator(name = "lc_quarantine_seq", sequenceName = "lc_quarantine_seq", allocationSize = 20)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lc_quarantine_seq")
    private Long id;

    @Column(name = "message_id", length = 200)
    private String messageId;
    @Column(name = "queue_name", length = 255)
    private String queue;
    @Column(name = "job_id", length = 128)
    private String jobId;
    @Column(name = "reason", length = 64, nullable = false)
    private String reason;
    @Column(name = "detail", length = 1000)
    private String detail;
    @Lob
    @Column(name = "body")
    private String body;
    @Column(name = "quarantined_at", nullable = false)
    private long quarantinedAt;

    protected QuarantinedMessage() {
    }

    public QuarantinedMessage(String messageId, String queue, String jobId, Reason reason, String detail,
            String body, long at) {
        // every value here may come from an untrusted producer: cut to the column and made storable
        this.messageId = Untrusted.text(messageId, 200);
        this.queue = Untrusted.text(queue, 255);
        this.jobId = Untrusted.text(jobId, 128);
        this.reason = reason.name();
        this.detail = Untrusted.text(detail, 1000);
        this.body = Untrusted.text(body, Untrusted.MAX_BODY_CHARS);
        this.quarantinedAt = at;
    }

    public Long getId() { return id; }
    public String getMessageId() { return messageId; }
    public String getQueue() { return queue; }
    public String getJobId() { return jobId; }
    public String getReason() { return reason; }
    public String getDetail() { return detail; }
    public String getBody() { return body; }
    public long getQuarantinedAt() { return quarantinedAt; }
}
