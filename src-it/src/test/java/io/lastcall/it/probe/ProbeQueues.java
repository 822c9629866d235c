package io.lastcall.it.probe;

/** Queue names the probes consume; the tests create them fresh before each deployment. */
public final class ProbeQueues {

    public static final String FLAKY = "it.flaky";
    public static final String FLAKY_DLX = "it.flaky.dlx";
    public static final String FLAKY_DEAD = "it.flaky.dead";
    /** Attempts of the flaky probe, recorded in their own transactions so rollbacks keep them. */
    public static final String FLAKY_ATTEMPTS = "it.flaky#attempts";
    public static final String BLOCKING = "it.blocking";
    public static final String RELEASE = "it.release";
    public static final String SLOW = "it.slow";

    public static final int FLAKY_MAX_REDELIVERIES = 2;
    public static final int BLOCKING_PREFETCH = 8;
    /** The header by which the blocking probe's activation hands out what it holds, lowest first. */
    public static final String BLOCKING_ORDER_BY = "x-probe-due";
    /** The header whose values take turns at what the blocking probe's activation holds. */
    public static final String BLOCKING_SHARE_BY = "x-probe-tenant";

    private ProbeQueues() {
    }
}
