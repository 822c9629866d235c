package io.lastcall.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * lastcall's Micrometer Prometheus registry (docs/design.md §9) and the latencies recorded where
 * they happen: queue residence, consumer residence, check to last byte. What the ledger and the
 * broker know is read into the same registry at scrape time by the metrics page (web). Labels are
 * only workload, outcome, reason, state and queue: never a job id or a subject.
 */
@ApplicationScoped
public class LastcallMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Residence queueResidence = new Residence(registry, "lastcall.queue.residence",
            "published to the broker -> received by a worker", Residence.millis(5, 10, 25, 50, 100, 250, 500, 1_000,
                    2_500, 5_000, 10_000, 30_000, 60_000, 300_000));
    private final Residence consumerResidence = new Residence(registry, "lastcall.consumer.residence",
            "received by a worker -> final deadline check (permit wait included)", Residence.millis(1, 5, 10, 25,
                    50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000));
    private final Residence checkToLastByte = new Residence(registry, "lastcall.check.to.last.byte",
            "final deadline check -> last byte of the request written to the model backend", Residence.millis(1, 2, 5, 10, 25, 50,
                    100, 250));

    public void queueResidence(String workload, Long publishedAt, Long receivedAt) {
        if (publishedAt != null && receivedAt != null) {
            queueResidence.record(workload, (receivedAt - publishedAt) * 1_000_000);
        }
    }

    public void consumerResidence(String workload, Long receivedAt, Long checkedAt) {
        if (receivedAt != null && checkedAt != null) {
            consumerResidence.record(workload, (checkedAt - receivedAt) * 1_000_000);
        }
    }

    public void checkToLastByte(String workload, long nanos) {
        checkToLastByte.record(workload, nanos);
    }

    /** A group commit ({@code receipt-and-gate}, {@code handoff}, {@code settlement}, {@code submission}) recorded {@code size} items in one transaction. */
    public void groupCommitted(String group, int size) {
        DistributionSummary.builder(GROUP_SIZE).description("items recorded in one transaction by a group commit")
                .tag("group", group).register(registry).record(size);
    }

    private static final String GROUP_SIZE = "lastcall.group.size";

    /** A model backend answered 429 Too Many Requests to this server. */
    public void tooManyRequests(String backend) {
        Counter.builder(TOO_MANY_REQUESTS).description("429 answers from the model backend to this server")
                .tag("backend", backend).register(registry).increment();
    }

    /** The 429s this server had from the backend since it started. */
    public long tooManyRequestsFrom(String backend) {
        Counter counter = registry.find(TOO_MANY_REQUESTS).tag("backend", backend).counter();
        return counter == null ? 0 : (long) counter.count();
    }

    private static final String TOO_MANY_REQUESTS = "lastcall.backend.too.many.requests";

    /** The registry, for what is read at scrape time. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }
}
