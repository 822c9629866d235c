package io.lastcall.policy;

/**
 * Retention: how long ended jobs, deliveries and quarantined messages are kept, and the purge's pace.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class RetentionSettings {

    private final ConfigReader config;

    RetentionSettings(ConfigReader config) {
        this.config = config;
    }

    /**
     * Retention: ended jobs (with their attempts), delivery-log rows and quarantined messages older
     * than this are purged by the reconciler; 0 keeps everything. Default 30 days.
     */
    public long maxAgeMs() {
        return config.number("lastcall.retention.max-age-ms", 30L * 24 * 3600 * 1000);
    }

    /** Rows per purge transaction; each pass runs at most {@link #batchesPerPass()} of them per kind. */
    public int batchSize() {
        return (int) config.number("lastcall.retention.batch-size", 500);
    }

    public int batchesPerPass() {
        return (int) config.number("lastcall.retention.batches-per-pass", 10);
    }
}
