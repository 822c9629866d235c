package io.lastcall.policy;

/**
 * Ingress: the size of what may be submitted and how it is published.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class IngressSettings {

    private final ConfigReader config;

    IngressSettings(ConfigReader config) {
        this.config = config;
    }

    /** Confirm channels ingress publishes on concurrently (one connection). */
    public int publisherChannels() {
        return (int) Math.max(1, config.number("lastcall.ingress.publisher-channels", 8));
    }

    /**
     * At most how many concurrent single submissions are stored in one transaction and published
     * together ({@code lastcall.ingress.group-max}); 1 stores each alone.
     */
    public int groupMax() {
        return (int) Math.max(1, config.number("lastcall.ingress.group-max", 64));
    }

    /** Envelopes in one {@code POST /api/jobs/batch}. */
    public int maxBatchSize() {
        return (int) Math.max(1, config.number("lastcall.ingress.max-batch-size", 1_000));
    }

    /** The body of one batch. */
    public long maxBatchBodyBytes() {
        return Math.max(1_024, config.number("lastcall.ingress.max-batch-body-bytes", 16L * 1024 * 1024));
    }

    /** Request bodies larger than this are refused with 413 ({@code lastcall.ingress.max-body-bytes}). */
    public long maxBodyBytes() {
        return Math.max(1_024, config.number("lastcall.ingress.max-body-bytes", 1024 * 1024));
    }
}
