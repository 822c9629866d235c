package io.lastcall.policy;

import java.util.List;

/**
 * The broker topology lastcall declares: exchanges, queues and retry tiers.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class TopologySettings {

    private final ConfigReader config;

    TopologySettings(ConfigReader config) {
        this.config = config;
    }

    /** The direct exchange ingress publishes to; the routing key is the workload. */
    public String workExchange() {
        return config.text("lastcall.broker.work-exchange", "lastcall.work");
    }

    /** The queue of one workload: {@code <lastcall.broker.work-queue-prefix>.<workload>}. */
    public String workQueue(String workload) {
        return config.text("lastcall.broker.work-queue-prefix", Defaults.WORK_QUEUE_PREFIX) + "." + workload;
    }

    public String deadLetterExchange() {
        return config.text("lastcall.broker.dead-letter-exchange", "lastcall.dlx");
    }

    /** The dead-letter queue: the same key the dead-letter MDB's connector activation reads. */
    public String deadLetterQueue() {
        return config.text("lastcall.dead-letter.queue", Defaults.DEAD_LETTER_QUEUE);
    }

    /** {@code classic} or {@code quorum}. */
    public String queueType() {
        return config.text("lastcall.broker.queue-type", "classic");
    }

    /** Retry delay tiers, shortest first ({@code lastcall.retry.tiers-ms}). */
    public List<Long> retryTiersMs() {
        return ConfigReader.split(config.text("lastcall.retry.tiers-ms", "1000,10000,60000")).stream().map(Long::valueOf).sorted().toList();
    }

    /** The exchange and queue of one retry tier: {@code <lastcall.broker.retry-prefix>.<ms>}. */
    public String retryTier(long tierMs) {
        return config.text("lastcall.broker.retry-prefix", "lastcall.retry") + "." + tierMs;
    }
}
