package io.lastcall.metrics;

import io.lastcall.policy.DispatchSettings;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;

/**
 * The model's live latency on this server, per {@link LatencyClass}: from the claim at the final
 * gate to the answer, for calls answered with a 2xx (a refusal's speed says nothing of an
 * answer's). Predictive admission asks it for a class's p95; the dashboard and the metrics show
 * each backend's p50 and p95. Each server learns from its own calls: nothing here is shared, and
 * nothing is kept across a restart (a fresh server predicts nothing until it has
 * {@code lastcall.admission.min-samples} answers of a class in its window).
 */
@ApplicationScoped
public class ModelLatencies {

    /** The window in six slices: one slice at a time ages out. */
    private static final int SLICES = 6;

    private final Map<LatencyClass, LiveLatency> classes = new ConcurrentHashMap<>();

    @Inject
    Settings settings;

    @Inject
    Clock clock;

    private DispatchSettings dispatch;

    @PostConstruct
    void init() {
        dispatch = settings.dispatch();
    }

    /** Records one answered call of this class that took {@code latencyMs} from claim to answer. */
    public void record(LatencyClass latencyClass, long latencyMs) {
        classes.computeIfAbsent(latencyClass, c -> new LiveLatency(dispatch.admissionWindowMs(), SLICES))
                .record(clock.millis(), latencyMs);
    }

    /** The class's live p95 in ms, or empty while its window holds fewer answers than the minimum. */
    public OptionalLong p95(LatencyClass latencyClass) {
        LiveLatency live = classes.get(latencyClass);
        long now = clock.millis();
        if (live == null || live.count(now) < dispatch.admissionMinSamples()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(live.percentile(now, 95));
    }

    /** One backend's answers in the window, every model and length together. */
    public record BackendLatency(String backend, long answers, long p50Ms, long p95Ms) {
    }

    /** Each backend that answered in the window, by key. */
    public List<BackendLatency> byBackend() {
        long now = clock.millis();
        Map<String, Histogram> sums = new TreeMap<>();
        classes.forEach((c, live) -> live.addTo(now, sums.computeIfAbsent(c.backend(), b -> LiveLatency.emptyHistogram())));
        return sums.entrySet().stream().filter(e -> e.getValue().getTotalCount() > 0)
                .map(e -> new BackendLatency(e.getKey(), e.getValue().getTotalCount(),
                        e.getValue().getValueAtPercentile(50), e.getValue().getValueAtPercentile(95)))
                .toList();
    }
}
