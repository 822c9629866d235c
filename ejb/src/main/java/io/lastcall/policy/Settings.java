package io.lastcall.policy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * Every decision-shaping setting, read from MicroProfile Config (defaults documented in the
 * README). Reads go to Config each time, so a dynamic config source takes effect at once.
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

    public long clockUncertaintyMs() {
        return number("lastcall.clock.uncertainty-ms", 50);
    }

    public int dispatchPermits() {
        return (int) Math.max(1, number("lastcall.dispatch.permits", 2));
    }

    public Set<Integer> schemaVersions() {
        return Set.of(1);
    }

    public Set<String> workloads() {
        return Arrays.stream(text("lastcall.workloads", "incident-summary,alert-digest,report").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
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
                !"discard".equalsIgnoreCase(workloadText(name, "late-results", "keep")));
    }

    private long workloadNumber(String workload, String key, long fallback) {
        return number("lastcall.workload." + workload + "." + key, number("lastcall.workload.default." + key, fallback));
    }

    private String workloadText(String workload, String key, String fallback) {
        return text("lastcall.workload." + workload + "." + key, text("lastcall.workload.default." + key, fallback));
    }

    public Pricing pricing() {
        return new Pricing(text("lastcall.price.revision", "default-1"), key -> {
            Optional<BigDecimal> configured = config.getOptionalValue("lastcall.price." + key, BigDecimal.class);
            if (configured.isPresent() || !key.startsWith("default.")) {
                return configured;
            }
            return Optional.of(key.endsWith("input-per-mtok") ? BigDecimal.ONE : BigDecimal.valueOf(2));
        });
    }

    public String modelBaseUrl() {
        return text("lastcall.model.base-url", "http://127.0.0.1:8080/lastcall/api/simulated-model/v1");
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

    public String workerQueue() {
        return text("lastcall.worker.queue", "lastcall.work");
    }

    public String deadLetterExchange() {
        return text("lastcall.broker.dead-letter-exchange", "lastcall.dlx");
    }

    public String deadLetterQueue() {
        return text("lastcall.broker.dead-letter-queue", "lastcall.dead");
    }
}
