package io.lastcall.web;

import io.lastcall.broker.QueueDepths;
import io.lastcall.dispatch.BackendWaits;
import io.lastcall.dispatch.DispatchPermits;
import io.lastcall.broker.ConsumerStatus;
import io.lastcall.job.Outcome;
import io.lastcall.ledger.BackendStates;
import io.lastcall.ledger.LedgerStats;
import io.lastcall.metrics.LastcallMetrics;
import io.lastcall.metrics.ModelLatencies;
import io.lastcall.policy.Settings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The metrics page's reading: at each scrape, lastcall's figures from one {@link LedgerStats}
 * reading (so they are the same as {@code /api/stats}, survive restarts and are cluster-wide), the
 * broker's queue depths, this server's permits and consumers, registered once per label
 * combination in {@link LastcallMetrics}'s registry beside the latencies recorded there.
 */
@ApplicationScoped
public class MetricsPage {

    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final NeverBackwards counters = new NeverBackwards();
    private volatile Map<String, LedgerStats.Workload> ledger = Map.of();
    private volatile Map<String, QueueDepths.Depth> depths = Map.of();
    private volatile Map<String, BackendStates.BackendState> backends = Map.of();
    private volatile Map<String, ModelLatencies.BackendLatency> latencies = Map.of();
    private volatile Map<String, StatsResource.TenantView> tenants = Map.of();
    private PrometheusMeterRegistry registry;

    @Inject
    LastcallMetrics metrics;

    @EJB
    LedgerStats stats;

    @Inject
    DispatchPermits permits;

    @Inject
    BackendWaits backendWaits;

    @EJB
    BackendStates backendStates;

    @Inject
    Settings settings;

    @Inject
    QueueDepths queueDepths;

    @Inject
    ModelLatencies latencyReader;

    @Inject
    Clock clock;

    @PostConstruct
    void start() {
        registry = metrics.registry();
    }

    /** The Prometheus text exposition, with the ledger and broker figures read now. */
    public synchronized String scrape() {
        long now = clock.millis();
        ledger = stats.byWorkload(now);
        depths = queueDepths.read().stream().collect(java.util.stream.Collectors.toMap(QueueDepths.Depth::queue,
                d -> d));
        backends = backendStates.read(now, settings.backends())
                .stream().collect(java.util.stream.Collectors.toMap(BackendStates.BackendState::backend, b -> b));
        tenants = StatsResource.TenantView.of(stats.byTenant(now)).stream()
                .collect(java.util.stream.Collectors.toMap(StatsResource.TenantView::tenant, t -> t));
        registerAll();
        return registry.scrape();
    }

    /** New label combinations (a workload's first outcome, a new queue) get their meter once. */
    private void registerAll() {
        once("permits", () -> {
            Gauge.builder("lastcall.dispatch.permits", permits, DispatchPermits::size)
                    .description("calls that may be in flight at once on this server").register(registry);
            Gauge.builder("lastcall.dispatch.permits.in.use", permits, DispatchPermits::inUse)
                    .description("calls in flight on this server").register(registry);
            Gauge.builder("lastcall.jobs.waiting.locally", permits, DispatchPermits::waiting)
                    .description("received jobs waiting on this server for a dispatch permit").register(registry);
            Gauge.builder("lastcall.jobs.waiting.for.backend", backendWaits, BackendWaits::waiting)
                    .description("received jobs waiting on this server for a paused or rate-limited backend")
                    .register(registry);
        });
        ledger.forEach((workload, w) -> {
            Tags tags = Tags.of("workload", workload);
            once("ledger " + workload, () -> {
                ledgerGauge("lastcall.jobs.accepted", "jobs accepted by ingress", tags, x -> x.accepted, true);
                ledgerGauge("lastcall.spend", "actual spend, from the backend's usage", tags,
                        x -> x.actualSpend.doubleValue(), true);
                ledgerGauge("lastcall.reserved", "exposure reserved for calls without a recorded result", tags,
                        x -> x.reserved.doubleValue(), false);
                ledgerGauge("lastcall.estimated.avoided.exposure",
                        "estimates of jobs that expired before dispatch (an estimate, not spend)", tags,
                        x -> x.avoidedExposure.doubleValue(), false);
                ledgerGauge("lastcall.admission.refused", "jobs refused before any request because the model's live"
                        + " p95 latency put their answer after the deadline (predictive admission on)", tags,
                        x -> x.admission.refused, true);
                ledgerGauge("lastcall.admission.refused.estimate", "estimates of the jobs refused as predicted late:"
                        + " money not spent on late answers (an estimate, not spend)", tags,
                        x -> x.admission.refusedEstimate.doubleValue(), true);
                ledgerGauge("lastcall.admission.predicted.late", "jobs the latency forecast named late (in shadow:"
                        + " what predictive admission on would refuse)", tags, x -> x.admission.predictedLate, true);
                ledgerGauge("lastcall.admission.false.refusals", "jobs the latency forecast named late that were"
                        + " answered on time", tags, x -> x.admission.predictedLateOnTime, true);
                ledgerGauge("lastcall.late.spend", "actual spend on answers that came after their useful deadline",
                        tags, x -> x.admission.lateSpend.doubleValue(), true);
                ledgerGauge("lastcall.invariant.holds", "1 when every accepted job is accounted for exactly once",
                        tags, x -> x.invariantHolds() ? 1 : 0, false);
            });
            w.byOutcome.keySet().forEach(outcome -> once("ended " + workload + " " + outcome, () ->
                FunctionCounter.builder("lastcall.jobs.ended", this,
                        m -> m.counters.read("ended " + workload + " " + outcome, m.ended(workload, outcome)))
                        .description("jobs that reached an outcome, by outcome and reason")
                        .tags(tags.and("outcome", outcome.state().name(), "reason", outcome.reason())).register(registry)));
            w.inFlightByState.keySet().forEach(state -> registerInFlight(workload, state));
        });
        depths.keySet().forEach(queue -> once("queue " + queue, () -> {
            Gauge.builder("lastcall.broker.messages.ready", this, m -> m.depth(queue, QueueDepths.Depth::ready))
                    .description("messages ready in the queue (RabbitMQ)").tag("queue", queue).register(registry);
            Gauge.builder("lastcall.broker.consumers", this, m -> m.depth(queue, QueueDepths.Depth::consumers))
                    .description("consumers of the queue (RabbitMQ)").tag("queue", queue).register(registry);
        }));
        backends.forEach((key, state) -> {
            once("backend " + key, () -> {
                backendGauge("lastcall.backend.requests.per.minute", "the backend's declared request limit (0: none)",
                        key, BackendStates.BackendState::requestsPerMinute);
                backendGauge("lastcall.backend.tokens.per.minute", "the backend's declared token limit (0: none)",
                        key, BackendStates.BackendState::tokensPerMinute);
                backendGauge("lastcall.backend.paused.until.seconds", "until when the backend asked not to be called"
                        + " (epoch seconds; 0: never)", key, b -> b.pausedUntil() / 1000.0);
            });
            // what is left only where there is a limit (an unlimited backend has no such figure)
            if (state.requestsLeft() != null && state.requestsPerMinute() > 0) {
                once("backend requests " + key, () -> backendGauge("lastcall.backend.requests.left",
                        "requests lastcall may still send this minute, fleet-wide (of 95 % of the limit, refilled"
                                + " continuously)", key, b -> b.requestsLeft() == null ? 0 : b.requestsLeft()));
            }
            if (state.tokensLeft() != null && state.tokensPerMinute() > 0) {
                once("backend tokens " + key, () -> backendGauge("lastcall.backend.tokens.left",
                        "tokens lastcall may still send this minute, fleet-wide", key,
                        b -> b.tokensLeft() == null ? 0 : b.tokensLeft()));
            }
        });
        latencies = latencyReader.byBackend();
        latencies.keySet().forEach(key -> once("backend latency " + key, () -> {
            latencyGauge("lastcall.backend.latency.p50.seconds", "p50 from claim to a 2xx answer, this server's"
                    + " answers in the live latency window", key, ModelLatencies.BackendLatency::p50Ms);
            latencyGauge("lastcall.backend.latency.p95.seconds", "p95 from claim to a 2xx answer, this server's"
                    + " answers in the live latency window", key, ModelLatencies.BackendLatency::p95Ms);
        }));
        tenants.keySet().forEach(tenant -> once("tenant " + tenant, () -> {
            tenantGauge("lastcall.tenant.jobs.ended", "the tenant's jobs that ended in the last hour", tenant,
                    StatsResource.TenantView::ended);
            tenantGauge("lastcall.tenant.share", "the tenant's part of the calls made for the jobs that ended in"
                    + " the last hour (0 to 1)", tenant, t -> t.share() == null ? 0 : t.share());
            tenantGauge("lastcall.tenant.on.time.ratio", "the part of the tenant's jobs that ended in the last hour"
                    + " that were answered on time (0 to 1)", tenant, t -> t.onTimeRate() == null ? 0 : t.onTimeRate());
        }));
        for (ConsumerStatus.Activation a : ConsumerStatus.activations()) {
            once("unacked " + a.queue(), () -> Gauge.builder("lastcall.consumer.unacknowledged", a.queue(),
                    MetricsPage::unacknowledged).description("deliveries this server holds and has not settled")
                    .tag("queue", a.queue()).register(registry));
        }
    }

    private void backendGauge(String name, String description, String key,
            ToDoubleFunction<BackendStates.BackendState> value) {
        keyedGauge(name, description, "backend", key, m -> m.backends, value);
    }

    /** A tenant that left the window reads 0. */
    private void tenantGauge(String name, String description, String tenant,
            ToDoubleFunction<StatsResource.TenantView> value) {
        keyedGauge(name, description, "tenant", tenant, m -> m.tenants, value);
    }

    private void latencyGauge(String name, String description, String key,
            ToDoubleFunction<ModelLatencies.BackendLatency> millis) {
        // no answers in the window: 0, not NaN
        keyedGauge(name, description, "backend", key, m -> m.latencies, l -> millis.applyAsDouble(l) / 1000.0);
    }

    /** A gauge of one entry of a map the last scrape read; 0 while the map has no such entry. */
    private <T> void keyedGauge(String name, String description, String label, String key,
            java.util.function.Function<MetricsPage, Map<String, T>> map, ToDoubleFunction<T> value) {
        Gauge.builder(name, this, m -> {
            T entry = map.apply(m).get(key);
            return entry == null ? 0 : value.applyAsDouble(entry);
        }).description(description).tag(label, key).register(registry);
    }

    private void registerInFlight(String workload, String state) {
        once("in flight " + workload + " " + state, () -> Gauge.builder("lastcall.jobs.in.flight", this,
                m -> m.inFlight(workload, state)).description("accepted jobs without an outcome yet, by state")
                .tags("workload", workload, "state", state).register(registry));
    }

    private void ledgerGauge(String name, String description, Tags tags, ToDoubleFunction<LedgerStats.Workload> value,
            boolean monotonic) {
        String workload = tags.stream().findFirst().orElseThrow().getValue();
        ToDoubleFunction<MetricsPage> read = m -> {
            LedgerStats.Workload w = m.ledger.get(workload);
            return w == null ? 0 : value.applyAsDouble(w);
        };
        if (monotonic) {
            String key = name + " " + workload;
            FunctionCounter.builder(name, this, m -> m.counters.read(key, read.applyAsDouble(m)))
                    .description(description).tags(tags).register(registry);
        } else {
            Gauge.builder(name, this, read).description(description).tags(tags).register(registry);
        }
    }

    private double ended(String workload, Outcome outcome) {
        LedgerStats.Workload w = ledger.get(workload);
        return w == null ? 0 : w.byOutcome.getOrDefault(outcome, 0L);
    }

    private double inFlight(String workload, String state) {
        LedgerStats.Workload w = ledger.get(workload);
        return w == null ? 0 : w.inFlightByState.getOrDefault(state, 0L);
    }

    private double depth(String queue, ToDoubleFunction<QueueDepths.Depth> field) {
        QueueDepths.Depth d = depths.get(queue);
        return d == null ? Double.NaN : field.applyAsDouble(d);
    }

    private static double unacknowledged(String queue) {
        List<ConsumerStatus.Activation> all = ConsumerStatus.activations();
        return all.stream().filter(a -> a.queue().equals(queue))
                .mapToLong(ConsumerStatus.Activation::unacknowledged).sum();
    }

    private void once(String key, Runnable register) {
        if (registered.add(key)) {
            register.run();
        }
    }
}
