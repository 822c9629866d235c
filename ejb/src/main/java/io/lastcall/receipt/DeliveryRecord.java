package io.lastcall.receipt;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** One delivery of one broker message, as it was received. */
@Entity
@Table(name = "lc_delivery", indexes = @Index(name = "lc_delivery_queue", columnList = "queue_name, id"))
public class DeliveryRecord {

    @Id
    @SequenceGenerator(name = "lc_delivery_seq", sequenceName = "lc_delivery_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "lc_delivery_seq")
    private Long id;

    @Column(name = "message_id", length = 200, nullable = false)
    private String messageId;

    @Column(name = "queue_name", length = 255, nullable = false)
    private String queue;

    @Lob
    @Column(name = "body")
    private String body;

    @Column(name = "received_at", nullable = false)
    private long receivedAt;

    @Column(name = "redelivered", nullable = false)
    private boolean redelivered;

    protected DeliveryRecord() {
    }

    public DeliveryRecord(ReceivedMessage message) {
        this.messageId = message.messageId();
        this.queue = message.queue();
        this.body = message.body();
        this.receivedAt = message.receivedAt();
        this.redelivered = message.redelivered();
    }

    public Long getId() { return id; }
    public String getMessageId() { return messageId; }
    public String getQueue() { return queue; }
    public String getBody() { return body; }
    public long getReceivedAt() { return receivedAt; }
    public boolean isRedelivered() { return redelivered; }
}
