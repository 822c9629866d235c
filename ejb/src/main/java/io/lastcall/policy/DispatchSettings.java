package io.lastcall.policy;

/**
 * Dispatch: how many calls at once, in which order, and the handoff's and the settlement's bounds.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class DispatchSettings {

    private final ConfigReader config;

    DispatchSettings(ConfigReader config) {
        this.config = config;
    }

    public int permits() {
        return (int) Math.max(1, config.number("lastcall.dispatch.permits", 2));
    }

    /** How jobs waiting for a permit are served: {@code edf} (earliest deadline first) or {@code fifo}. */
    public DispatchOrder order() {
        String order = config.text("lastcall.dispatch.order", "edf");
        try {
            return DispatchOrder.valueOf(order.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lastcall.dispatch.order must be edf or fifo, not " + order);
        }
    }

    /**
     * How long after the HANDED_OFF commit the request may still start to be written
     * ({@code lastcall.dispatch.handoff-max-ms}); past it, or past the deadline minus the margin,
     * the request is not sent and the attempt is released as never handed off.
     */
    public long handoffMaxMs() {
        return Math.max(1, config.number("lastcall.dispatch.handoff-max-ms", 100));
    }

    /**
     * How far back the model's live latency reaches ({@code lastcall.admission.window-ms}): short
     * enough to follow the model when it slows down, long enough to hold the minimum of answers.
     */
    public long admissionWindowMs() {
        return Math.max(1_000, config.number("lastcall.admission.window-ms", 10_000));
    }

    /** Answers of a latency class the window must hold before predictive admission trusts its p95 ({@code lastcall.admission.min-samples}). */
    public long admissionMinSamples() {
        return Math.max(1, config.number("lastcall.admission.min-samples", 20));
    }

    /**
     * At most how many settlements, or how many deliveries' receipt and gate, are recorded in one
     * transaction ({@code lastcall.dispatch.group-max}); 1 records each alone.
     */
    public int groupMax() {
        return (int) Math.max(1, config.number("lastcall.dispatch.group-max", 64));
    }

    /** How long a settlement that fails (database blip after a finished call) is retried before it is given up. */
    public long settleRetryMs() {
        return Math.max(0, config.number("lastcall.dispatch.settle-retry-ms", 120_000));
    }
}
