package io.lastcall.metrics;

import io.lastcall.policy.DispatchSettings;
import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
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

    /** The window in ten slices: one slice at a time ages out, and a busy class is judged on its newest ones. */
    private static final int SLICES = 10;

    /**
     * Classes kept at once (about 190 KB each): model names come from submitters. Past it, classes
     * with no answer in their window make room; if none has, a new class is not tracked (and not
     * forecast: its jobs are admitted).
     */
    static final int MAX_CLASSES = 200;

    private static final Logger LOG = Logger.getLogger(ModelLatencies.class.getName());

    private final Map<LatencyClass, LiveLatency> classes = new ConcurrentHashMap<>();
    private final AtomicBoolean fullLogged = new AtomicBoolean();

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
        long now = clock.millis();
        LiveLatency live = classes.get(latencyClass);
        if (live == null) {
            if (classes.size() >= MAX_CLASSES) {
                classes.values().removeIf(l -> l.count(now) == 0);
            }
            if (classes.size() >= MAX_CLASSES) {
                if (fullLogged.compareAndSet(false, true)) {
                    LOG.warning("The model's live latency is kept for " + MAX_CLASSES + " backend/model/length classes at"
                            + " most, and all of them answered in the last " + dispatch.admissionWindowMs() + " ms: "
                            + latencyClass + " and other new ones get no forecast (their jobs are admitted)");
                }
                return;
            }
            live = classes.computeIfAbsent(latencyClass, c -> new LiveLatency(dispatch.admissionWindowMs(), SLICES));
        }
        live.record(now, latencyMs);
    }

    /**
     * The class's live p95 in ms, over its newest answers (the newest slices holding at least
     * {@code lastcall.admission.min-samples} of them), or empty while its window holds fewer.
     */
    public OptionalLong p95(LatencyClass latencyClass) {
        LiveLatency live = classes.get(latencyClass);
        return live == null ? OptionalLong.empty()
                : live.recentPercentile(clock.millis(), 95, dispatch.admissionMinSamples());
    }

    /** One backend's answers in the window, every model and length together. */
    public record BackendLatency(String backend, long answers, long p50Ms, long p95Ms) {
    }

    /** Each backend that answered in the window, by its key. */
    public Map<String, BackendLatency> byBackend() {
        long now = clock.millis();
        Map<String, Histogram> sums = new TreeMap<>();
        classes.forEach((c, live) -> live.addTo(now, sums.computeIfAbsent(c.backend(), b -> LiveLatency.emptyHistogram())));
        Map<String, BackendLatency> answered = new TreeMap<>();
        sums.forEach((backend, h) -> {
            if (h.getTotalCount() > 0) {
                answered.put(backend, new BackendLatency(backend, h.getTotalCount(), h.getValueAtPercentile(50),
                        h.getValueAtPercentile(95)));
            }
        });
        return answered;
    }
}
