package io.lastcall.instance;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One running server boot and when it last said it was alive (epoch ms). */
@Entity
@Table(name = "lc_instance_lease")
public class InstanceLease {

    @Id
    @Column(name = "boot_id", length = 64)
    private String bootId;

    @Column(name = "instance_id", length = 128, nullable = false)
    private String instanceId;

    @Column(name = "started_at", nullable = false)
    private long startedAt;

    @Column(name = "heartbeat_at", nullable = false)
    private long heartbeatAt;

    protected InstanceLease() {
    }

    public InstanceLease(String bootId, String instanceId, long startedAt, long heartbeatAt) {
        this.bootId = bootId;
        this.instanceId = instanceId;
        this.startedAt = startedAt;
        this.heartbeatAt = heartbeatAt;
    }

    void renewed(long now) {
        heartbeatAt = Math.max(heartbeatAt, now);
    }

    /**
     * Whether this boot may still be alive at {@code now} (database time): it renewed after
     * {@code since} (a boot that died before then cannot have), or its next renewal, due every
     * quarter of the lease, is not overdue by more than a second yet.
     */
    public boolean mayBeAliveAt(long now, long leaseMs, long since) {
        return heartbeatAt > since || now - heartbeatAt < leaseMs / 4 + 1_000;
    }

    /** Whether the lease still holds at {@code now} for a lease of {@code leaseMs}. */
    public boolean liveAt(long now, long leaseMs) {
        return heartbeatAt >= now - leaseMs;
    }

    public String getBootId() { return bootId; }
    public String getInstanceId() { return instanceId; }
    public long getStartedAt() { return startedAt; }
    public long getHeartbeatAt() { return heartbeatAt; }
}
