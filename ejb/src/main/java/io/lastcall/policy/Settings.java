package io.lastcall.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * Every decision-shaping setting, read from MicroProfile Config (defaults documented in
 * docs/configuration.md). Reads go to Config each time, so a dynamic config source takes effect at once.
 */
@ApplicationScoped
public class Settings {

    @Inject
    Config config;

    private long number(String key, long fallback) {
        return config.getOptionalValue(key, Long.class).orElse(fallback);
    }

    private String text(String key, String fallback) {
        return config.getOptionalValue(key, String.class).filter(v -> !v.isBlank()).orElse(fallback);
    }

    /**
     * The margin every deadline check subtracts ({@code lastcall.clock.uncertainty-ms}, default 100):
     * it covers the clock error against the backend and the time from the last check to the
     * request's last byte, whose p99.9 measured under load on 2 busy cores was 39-78 ms (docs/configuration.md,
     * "Sizing the margin").
     */
    public long clockUncertaintyMs() {
        return number("lastcall.clock.uncertainty-ms", 100);
    }

    public int dispatchPermits() {
        return (int) Math.max(1, number("lastcall.dispatch.permits", 2));
    }

    /** How jobs waiting for a permit are served: {@code edf} (earliest deadline first) or {@code fifo}. */
    public DispatchOrder dispatchOrder() {
        String order = text("lastcall.dispatch.order", "edf");
        try {
            return DispatchOrder.valueOf(order.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lastcall.dispatch.order must be edf or fifo, not " + order);
        }
    }

    public Set<Integer> schemaVersions() {
        return Set.of(1);
    }

    public Set<String> workloads() {
        return Set.copyOf(split(text("lastcall.workloads", Defaults.WORKLOADS)));
    }

    /** The policy of a configured workload, or empty for a name not in {@code lastcall.workloads}. */
    public Optional<WorkloadPolicy> workload(String name) {
        return name != null && workloads().contains(name) ? Optional.of(workloadOrDefault(name)) : Optional.empty();
    }

    /** The policy under {@code lastcall.workload.<name>.*}, falling back key by key to the defaults. */
    public WorkloadPolicy workloadOrDefault(String name) {
        return new WorkloadPolicy(name,
                workloadNumber(name, "max-horizon-ms", 24 * 3_600_000L),
                workloadNumber(name, "ttl-cap-ms", 3_600_000L),
                workloadNumber(name, "max-execution-ms", 60_000L),
                workloadNumber(name, "late-grace-ms", 30_000L),
                !"discard".equalsIgnoreCase(workloadText(name, "late-results", "keep")),
                (int) Math.max(1, workloadNumber(name, "max-attempts", 3)),
                config.getOptionalValue("lastcall.workload." + name + ".budget", java.math.BigDecimal.class)
                        .or(() -> config.getOptionalValue("lastcall.workload.default.budget", java.math.BigDecimal.class))
                        .orElse(null),
                workloadText(name, "budget-period", "day"));
    }

    private long workloadNumber(String workload, String key, long fallback) {
        return number("lastcall.workload." + workload + "." + key, number("lastcall.workload.default." + key, fallback));
    }

    private String workloadText(String workload, String key, String fallback) {
        return text("lastcall.workload." + workload + "." + key, text("lastcall.workload.default." + key, fallback));
    }

    public Pricing pricing() {
        return new Pricing(text("lastcall.price.revision", "default-1"),
                key -> config.getOptionalValue("lastcall.price." + key, BigDecimal.class));
    }

    public String modelBaseUrl() {
        return text("lastcall.model.base-url", "http://127.0.0.1:8080/lastcall/simulated-model/v1");
    }

    /** A workload's own model endpoint ({@code lastcall.workload.<name>.model-base-url}), else the global one. */
    public String modelBaseUrl(String workload) {
        return text("lastcall.workload." + workload + ".model-base-url", modelBaseUrl());
    }

    /**
     * HTTP statuses the provider documents as "the request was not processed" (nothing billed), so
     * the attempt may be retried ({@code lastcall.model.not-processed-statuses}, default 429). Any
     * other error status after the request was written may have run: never retried.
     */
    public Set<Integer> notProcessedStatuses() {
        return split(text("lastcall.model.not-processed-statuses", "429")).stream().map(Integer::valueOf)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * How long a connection to the model backend is kept idle for the next request
     * ({@code lastcall.model.keep-alive-ms}, default 800; 0 closes each after its answer). Keep it
     * below the idle timeout of the backend and of every gateway in between: a request written on a
     * connection the server is closing is lost, and whether it ran cannot be known. A server's
     * {@code Keep-Alive: timeout=N} shortens it to 80 % of N.
     */
    public long modelKeepAliveMs() {
        return Math.max(0, number("lastcall.model.keep-alive-ms", 800));
    }

    /** Ceiling of the connect timeout to the model backend; the job's remaining lifetime bounds it further. */
    public long modelConnectTimeoutMs() {
        return Math.max(1, number("lastcall.model.connect-timeout-ms", 5_000));
    }

    /** The longest a response body may be (bytes); a longer one is cut and the attempt's result marked so. */
    public int modelMaxResponseBytes() {
        return (int) Math.max(1_024, number("lastcall.model.max-response-bytes", 4 * 1024 * 1024));
    }

    /**
     * How long after the HANDED_OFF commit the request may still start to be written
     * ({@code lastcall.dispatch.handoff-max-ms}); past it, or past the deadline minus the margin,
     * the request is not sent and the attempt is released as never handed off.
     */
    public long handoffMaxMs() {
        return Math.max(1, number("lastcall.dispatch.handoff-max-ms", 100));
    }

    /**
     * Whether every delivery from a work queue gets a delivery-log row ({@code lastcall.worker.delivery-log},
     * true): the log shows redeliveries and what each message carried; without it a job costs one
     * insert less. Dead-letter deliveries and quarantined messages are always recorded.
     */
    public boolean workerDeliveryLog() {
        return config.getOptionalValue("lastcall.worker.delivery-log", Boolean.class).orElse(true);
    }

    /** How long a settlement that fails (database blip after a finished call) is retried before it is given up. */
    public long settleRetryMs() {
        return Math.max(0, number("lastcall.dispatch.settle-retry-ms", 120_000));
    }

    /** Confirm channels ingress publishes on concurrently (one connection). */
    public int publisherChannels() {
        return (int) Math.max(1, number("lastcall.ingress.publisher-channels", 8));
    }

    /** Envelopes in one {@code POST /api/jobs/batch}. */
    public int ingressMaxBatchSize() {
        return (int) Math.max(1, number("lastcall.ingress.max-batch-size", 1_000));
    }

    /** The body of one batch. */
    public long ingressMaxBatchBodyBytes() {
        return Math.max(1_024, number("lastcall.ingress.max-batch-body-bytes", 16L * 1024 * 1024));
    }

    /** Request bodies larger than this are refused with 413 ({@code lastcall.ingress.max-body-bytes}). */
    public long ingressMaxBodyBytes() {
        return Math.max(1_024, number("lastcall.ingress.max-body-bytes", 1024 * 1024));
    }

    /** The tokenizer that counts prompt tokens for estimates ({@code lastcall.price.tokenizer}). */
    public PromptTokens promptTokens() {
        return new PromptTokens(text("lastcall.price.tokenizer", "o200k_base"));
    }

    /**
     * This server's instance id ({@code lastcall.instance.id}), recorded on every attempt it claims;
     * defaults to the host name. Several servers on one ledger must each have their own.
     */
    public String instanceId() {
        return text("lastcall.instance.id", defaultInstanceId());
    }

    /**
     * How long a server boot's lease holds without a renewal ({@code lastcall.instance.lease-ms});
     * it is renewed every quarter of that. After it lapses, another server closes what that boot
     * left. Longer than the longest stall a live server may have (a GC pause, a database failover).
     */
    public long instanceLeaseMs() {
        return Math.max(1_000, number("lastcall.instance.lease-ms", 30_000));
    }

    private static String defaultInstanceId() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "lastcall";
        }
    }

    public Optional<String> modelApiKey() {
        return config.getOptionalValue("lastcall.model.api-key", String.class).filter(v -> !v.isBlank());
    }

    public String clockReference() {
        return text("lastcall.clock.reference", "database");
    }

    public long clockMaxSkewMs() {
        return number("lastcall.clock.max-skew-ms", 1_000);
    }

    public long clockCheckIntervalMs() {
        return number("lastcall.clock.check-interval-ms", 10_000);
    }

    /** {@code refuse} (default) or {@code widen-margin}. */
    public String clockDegradedPolicy() {
        return text("lastcall.clock.degraded-policy", "refuse");
    }

    public long clockDegradedMarginMs() {
        return number("lastcall.clock.degraded-margin-ms", 5_000);
    }

    public boolean reconcilerEnabled() {
        return config.getOptionalValue("lastcall.reconciler.enabled", Boolean.class).orElse(true);
    }

    /** How long past a deadline the normal paths get to record an outcome before the reconciler does. */
    public long reconcilerGraceMs() {
        return number("lastcall.reconciler.grace-ms", 5_000);
    }

    /**
     * Retention: ended jobs (with their attempts), delivery-log rows and quarantined messages older
     * than this are purged by the reconciler; 0 keeps everything. Default 30 days.
     */
    public long retentionMaxAgeMs() {
        return number("lastcall.retention.max-age-ms", 30L * 24 * 3600 * 1000);
    }

    /** Rows per purge transaction; each pass runs at most {@link #retentionBatchesPerPass()} of them per kind. */
    public int retentionBatchSize() {
        return (int) number("lastcall.retention.batch-size", 500);
    }

    public int retentionBatchesPerPass() {
        return (int) number("lastcall.retention.batches-per-pass", 10);
    }

    /**
     * Ended jobs rolled up into the ended totals per transaction ({@code lastcall.reconciler.rollup-batch-size});
     * each pass runs at most {@link #rollUpBatchesPerPass()} of them, which must outpace the jobs ending.
     */
    public int rollUpBatchSize() {
        return (int) Math.max(1, number("lastcall.reconciler.rollup-batch-size", 1_000));
    }

    public int rollUpBatchesPerPass() {
        return (int) Math.max(1, number("lastcall.reconciler.rollup-batches-per-pass", 30));
    }

    /**
     * How long after a job ended it is rolled up ({@code lastcall.reconciler.rollup-lag-ms}): longer
     * than any transaction that ends a job takes to commit, plus the servers' clock skew.
     */
    public long rollUpLagMs() {
        return Math.max(0, number("lastcall.reconciler.rollup-lag-ms", 60_000));
    }

    public long reconcilerRepublishAfterMs() {
        return number("lastcall.reconciler.republish-after-ms", 10_000);
    }

    /** A claim not handed off after this long is taken as lost in a crash. */
    public long reconcilerClaimTimeoutMs() {
        return number("lastcall.reconciler.claim-timeout-ms", 30_000);
    }

    /** The direct exchange ingress publishes to; the routing key is the workload. */
    public String workExchange() {
        return text("lastcall.broker.work-exchange", "lastcall.work");
    }

    /** The queue of one workload: {@code <lastcall.broker.work-queue-prefix>.<workload>}. */
    public String workQueue(String workload) {
        return text("lastcall.broker.work-queue-prefix", Defaults.WORK_QUEUE_PREFIX) + "." + workload;
    }

    public String deadLetterExchange() {
        return text("lastcall.broker.dead-letter-exchange", "lastcall.dlx");
    }

    /** The dead-letter queue: the same key the dead-letter MDB's connector activation reads. */
    public String deadLetterQueue() {
        return text("lastcall.dead-letter.queue", Defaults.DEAD_LETTER_QUEUE);
    }

    /** {@code classic} or {@code quorum}. */
    public String queueType() {
        return text("lastcall.broker.queue-type", "classic");
    }

    /** Retry delay tiers, shortest first ({@code lastcall.retry.tiers-ms}). */
    public List<Long> retryTiersMs() {
        return split(text("lastcall.retry.tiers-ms", "1000,10000,60000")).stream().map(Long::valueOf).sorted().toList();
    }

    /** The exchange and queue of one retry tier: {@code <lastcall.broker.retry-prefix>.<ms>}. */
    public String retryTier(long tierMs) {
        return text("lastcall.broker.retry-prefix", "lastcall.retry") + "." + tierMs;
    }

    private static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    }
}
