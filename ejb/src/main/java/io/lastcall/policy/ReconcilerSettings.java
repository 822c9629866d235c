package io.lastcall.policy;

/**
 * The reconciler: its schedule, its grace, its timeouts and the roll-up of ended jobs.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class ReconcilerSettings {

    private final ConfigReader config;

    ReconcilerSettings(ConfigReader config) {
        this.config = config;
    }

    public boolean enabled() {
        return config.flag("lastcall.reconciler.enabled", true);
    }

    /** How long past a deadline the normal paths get to record an outcome before the reconciler does. */
    public long graceMs() {
        return config.number("lastcall.reconciler.grace-ms", 5_000);
    }

    /**
     * Ended jobs rolled up into the ended totals per transaction ({@code lastcall.reconciler.rollup-batch-size});
     * each pass runs at most {@link #rollUpBatchesPerPass()} of them, which must outpace the jobs ending.
     */
    public int rollUpBatchSize() {
        return (int) Math.max(1, config.number("lastcall.reconciler.rollup-batch-size", 1_000));
    }

    public int rollUpBatchesPerPass() {
        return (int) Math.max(1, config.number("lastcall.reconciler.rollup-batches-per-pass", 30));
    }

    /**
     * How long after a job ended it is rolled up ({@code lastcall.reconciler.rollup-lag-ms}): longer
     * than any transaction that ends a job takes to commit, plus the servers' clock skew.
     */
    public long rollUpLagMs() {
        return Math.max(0, config.number("lastcall.reconciler.rollup-lag-ms", 60_000));
    }

    public long republishAfterMs() {
        return config.number("lastcall.reconciler.republish-after-ms", 10_000);
    }

    /** A claim not handed off after this long is taken as lost in a crash. */
    public long claimTimeoutMs() {
        return config.number("lastcall.reconciler.claim-timeout-ms", 30_000);
    }
}
