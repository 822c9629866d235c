package io.lastcall.policy;

/**
 * Defaults that two places need: the settings' readers and the MDBs' activation properties (an
 * annotation takes only a constant), written once here. docs/configuration.md lists them;
 * ConfigurationTableTest keeps the two equal.
 */
public final class Defaults {

    /** {@code lastcall.workloads} */
    public static final String WORKLOADS = "incident-summary,alert-digest,report";
    /** {@code lastcall.broker.work-queue-prefix}: a workload's queue is {@code <prefix>.<workload>} */
    public static final String WORK_QUEUE_PREFIX = "lastcall.work";
    /** {@code lastcall.worker.queue}: the queues of the default workloads */
    public static final String WORKER_QUEUES = WORK_QUEUE_PREFIX + ".incident-summary," + WORK_QUEUE_PREFIX
            + ".alert-digest," + WORK_QUEUE_PREFIX + ".report";
    /** {@code lastcall.dead-letter.queue} */
    public static final String DEAD_LETTER_QUEUE = "lastcall.dead";

    private Defaults() {
    }
}
