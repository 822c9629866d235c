package io.lastcall.policy;

import java.util.Optional;
import java.util.Set;

/**
 * The model backend: where it is, how lastcall connects to it and what its answers mean.
 * Read from MicroProfile Config at each call; each default is written here once.
 */
public final class ModelSettings {

    private final ConfigReader config;

    ModelSettings(ConfigReader config) {
        this.config = config;
    }

    public String baseUrl() {
        return config.text("lastcall.model.base-url", "http://127.0.0.1:8080/lastcall/simulated-model/v1");
    }

    /**
     * HTTP statuses the provider documents as "the request was not processed" (nothing billed), so
     * the attempt may be retried ({@code lastcall.model.not-processed-statuses}, default 429). Any
     * other error status after the request was written may have run: never retried.
     */
    public Set<Integer> notProcessedStatuses() {
        return ConfigReader.split(config.text("lastcall.model.not-processed-statuses", "429")).stream().map(Integer::valueOf)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * How long a connection to the model backend is kept idle for the next request
     * ({@code lastcall.model.keep-alive-ms}, default 800; 0 closes each after its answer). Keep it
     * below the idle timeout of the backend and of every gateway in between: a request written on a
     * connection the server is closing is lost, and whether it ran cannot be known. A server's
     * {@code Keep-Alive: timeout=N} shortens it to 80 % of N.
     */
    public long keepAliveMs() {
        return Math.max(0, config.number("lastcall.model.keep-alive-ms", 800));
    }

    /**
     * The longest pause a "not processed" answer may impose on its backend
     * ({@code lastcall.model.max-pause-ms}, default 300000): a {@code Retry-After} or rate-limit
     * reset beyond it is cut to it, so one odd header cannot stop every job of the backend for hours.
     */
    public long maxPauseMs() {
        return Math.max(0, config.number("lastcall.model.max-pause-ms", 300_000));
    }

    /** Ceiling of the connect timeout to the model backend; the job's remaining lifetime bounds it further. */
    public long connectTimeoutMs() {
        return Math.max(1, config.number("lastcall.model.connect-timeout-ms", 5_000));
    }

    /** The longest a response body may be (bytes); a longer one is cut and the attempt's result marked so. */
    public int maxResponseBytes() {
        return (int) Math.max(1_024, config.number("lastcall.model.max-response-bytes", 4 * 1024 * 1024));
    }

    public Optional<String> apiKey() {
        return config.optional("lastcall.model.api-key", String.class).filter(v -> !v.isBlank());
    }
}
