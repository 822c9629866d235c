package io.lastcall.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One latency histogram per workload with fixed buckets (so a stock Prometheus can aggregate
 * across servers with histogram_quantile, and the series stay few).
 */
final class Residence {

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final Duration[] buckets;
    private final Map<String, Timer> byWorkload = new ConcurrentHashMap<>();

    Residence(MeterRegistry registry, String name, String description, Duration... buckets) {
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.buckets = buckets;
    }

    void record(String workload, long nanos) {
        if (nanos < 0) {
            return; // clocks of two hosts disagree: no sample rather than a wrong one
        }
        byWorkload.computeIfAbsent(workload, w -> Timer.builder(name).description(description).tag("workload", w)
                .serviceLevelObjectives(buckets).register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    static Duration[] millis(long... values) {
        Duration[] result = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            result[i] = Duration.ofMillis(values[i]);
        }
        return result;
    }
}
