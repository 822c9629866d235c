package io.lastcall.dispatch;

import io.lastcall.job.Deadline;
import io.lastcall.job.JsonText;
import io.lastcall.transport.Answer;
import io.lastcall.transport.BackendConnection;
import io.lastcall.transport.BackendPool;
import io.lastcall.transport.Origin;
import io.lastcall.transport.PreparedRequest;
import io.lastcall.transport.RateRemaining;
import io.lastcall.transport.RetryAfter;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.HttpException;

/**
 * Speaks the OpenAI chat-completions API to a model backend, in steps that put nothing between
 * the last deadline check and the complete request (docs/design.md, "Transport"):
 * {@link #connect} leases a connection the server has not closed (or opens one, TLS included);
 * {@link Connection#prepare} serializes the whole request into bytes and arms the watchdog that
 * bounds the call; the caller makes the last check and commits HANDED_OFF;
 * {@link Connection#write} checks the authorization by both clocks and writes the bytes in one
 * write — the handoff is its last byte; {@link Connection#answer} reads and classifies the answer.
 * Each request carries the deadline ({@code X-Lastcall-Deadline}, epoch ms) and the attempt id as
 * idempotency key.
 */
@ApplicationScoped
public class ModelClient {

    public static final String DEADLINE_HEADER = "X-Lastcall-Deadline";

    /** Who is calling, for the request headers, and how long the call (write and answer) may take. */
    public record Call(String jobId, String attemptId, Deadline deadline, long timeoutMs) {
    }

    /** The outcome of the write: all of it written at {@code atNanos}, or not (and why). */
    public record Sent(boolean written, long atNanos, String notWrittenBecause) {
    }

    private final BackendPool pool = new BackendPool();

    @Resource
    ManagedThreadFactory threads;

    private ScheduledExecutorService scheduler;

    /** The watchdogs' own thread, made by the container; null outside a container. */
    private ScheduledThreadPoolExecutor watchdogs;

    public ModelClient() {
    }

    /** Outside a container (tests): watchdogs on the given scheduler. */
    ModelClient(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    @PostConstruct
    void start() {
        if (scheduler == null) {
            // one container thread, its context captured once: the container's managed scheduler
            // captures the caller's context on every schedule (a ServiceLoader scan in Payara 6):
            // 7.8 % of the server's JFR samples in a bench cost run when each call armed its watchdog there
            // (docs/performance.md, "Where a drained job's CPU goes"); a watchdog needs no context
            watchdogs = new ScheduledThreadPoolExecutor(1, threads);
            watchdogs.setRemoveOnCancelPolicy(true);
            scheduler = watchdogs;
        }
        // idle connections past their keep-alive are closed even when no call comes
        scheduler.scheduleWithFixedDelay(pool::evictExpired, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * A connection to the backend at {@code baseUrl} (the {@code /v1} root), ready to write.
     *
     * @throws IOException the backend was not reached within {@code connectTimeoutMs}: nothing was written
     */
    public Connection connect(String baseUrl, long connectTimeoutMs) throws IOException {
        URI uri = URI.create(baseUrl + "/chat/completions");
        try {
            return new Connection(uri, pool.lease(Origin.of(uri), connectTimeoutMs));
        } catch (IllegalArgumentException e) {
            throw new IOException("model base URL " + baseUrl + ": " + e.getMessage(), e);
        }
    }

    /** A connection that has written nothing yet; close it whether or not it was used. */
    public final class Connection implements AutoCloseable {
        private final URI uri;
        private final BackendConnection backend;
        private ScheduledFuture<?> watchdog;
        private long endNanos;
        private long timeoutMs;
        private boolean written;
        private long reusableForMs;

        private Connection(URI uri, BackendConnection backend) {
            this.uri = uri;
            this.backend = backend;
        }

        /**
         * The whole request as bytes, made before the last check, and the watchdog that closes the
         * connection when {@code call.timeoutMs()} is up, however far the write or the answer got.
         */
        public PreparedRequest prepare(String payload, Call call, String apiKey) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Accept", "application/json");
            headers.put(DEADLINE_HEADER, Long.toString(call.deadline().expiresAt()));
            headers.put("X-Lastcall-Deadline-Semantics", call.deadline().semantics().name());
            headers.put("X-Lastcall-Job-Id", call.jobId());
            headers.put("X-Lastcall-Attempt-Id", call.attemptId());
            headers.put("Idempotency-Key", call.attemptId());
            if (apiKey != null) {
                headers.put("Authorization", "Bearer " + apiKey);
            }
            PreparedRequest request = PreparedRequest.post(uri, headers, "application/json",
                    payload.getBytes(StandardCharsets.UTF_8));
            timeoutMs = Math.max(1, call.timeoutMs());
            endNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            watchdog = scheduler.schedule(backend::abort, timeoutMs, TimeUnit.MILLISECONDS);
            return request;
        }

        /**
         * The handoff: if the server has not closed the connection since it was leased (an idle
         * timeout that fell during the last check's commit: bytes written into a connection the
         * server is closing are unknown, not unsent) and the authorization still holds by the
         * monotonic clock ({@code writeByNanos}, System.nanoTime) and by the wall clock
         * ({@code writeByMillis}; nanoTime stands still while the machine is suspended), writes the
         * prepared request in one write. A write that fails was not completely written, so the
         * server cannot have processed it: not written.
         */
        public Sent write(PreparedRequest request, long writeByNanos, long writeByMillis, Clock wallClock) {
            if (!backend.stillSilent()) {
                return new Sent(false, System.nanoTime(),
                        "the server closed the connection (or sent bytes unasked) before the request was written");
            }
            long now = System.nanoTime();
            if (now - writeByNanos > 0 || wallClock.millis() > writeByMillis) {
                return new Sent(false, now, "not written within the handoff authorization");
            }
            try {
                backend.write(request);
            } catch (IOException e) {
                return new Sent(false, System.nanoTime(), backend.aborted()
                        ? "the request was not completely written within the call timeout (" + timeoutMs + " ms)"
                        : "the connection failed while the request was written: " + e);
            }
            long lastByte = System.nanoTime();
            written = true;
            return new Sent(true, lastByte, null);
        }

        /**
         * Reads the answer of a written request within the call's timeout and classifies it.
         *
         * @param notProcessed statuses that mean "not processed" (may be retried)
         * @param keepAliveMs  how long the connection may then wait for the next request, at most
         */
        public ModelResult answer(Set<Integer> notProcessed, int maxResponseBytes, long keepAliveMs, Clock wallClock) {
            try {
                Answer answer = backend.read(maxResponseBytes, endNanos, keepAliveMs);
                long answeredAt = wallClock.millis();
                reusableForMs = answer.reusableForMs();
                return classify(answer, notProcessed, answeredAt).answeredAt(answeredAt)
                        .remaining(RateRemaining.of(answer.headers()));
            } catch (SocketTimeoutException e) {
                return ModelResult.unknown("no complete response within " + timeoutMs + " ms");
            } catch (IOException | HttpException | RuntimeException e) {
                return ModelResult.unknown(backend.aborted() ? "no complete response within " + timeoutMs + " ms"
                        : "connection failed after the request was written: " + e);
            }
        }

        /** Back to the pool when the server allows another request on it, else closed. */
        @Override
        public void close() {
            if (watchdog != null) {
                watchdog.cancel(false);
            }
            if (written && reusableForMs > 0) {
                pool.release(backend, reusableForMs);
            } else {
                backend.close();
            }
        }
    }

    /**
     * An answer by its status: 2xx completed (usage as reported), a "not processed" status (with the
     * pause it asks for, if it names one), any other error.
     */
    static ModelResult classify(Answer answer, Set<Integer> notProcessed, long nowMs) {
        int status = answer.status();
        if (status / 100 != 2) {
            ModelResult error = ModelResult.error(status, "HTTP " + status + ": " + abbreviate(answer.body(), 300),
                    notProcessed.contains(status));
            OptionalLong pause = error.kind() == ModelResult.Kind.NOT_PROCESSED
                    ? RetryAfter.millis(answer.headers(), nowMs) : OptionalLong.empty();
            return pause.isPresent() ? error.retryAfter(pause.getAsLong()) : error;
        }
        if (!answer.complete()) {
            return ModelResult.completed(status, null, null, abbreviate(answer.body(), 2_000));
        }
        return parse(status, answer.body());
    }

    @PreDestroy
    void shutdown() {
        if (watchdogs != null) {
            watchdogs.shutdownNow();
        }
        pool.close();
    }

    private static String abbreviate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** A 2xx body: usage and content as reported; an unreadable body has no usage (its cost is the estimate). */
    static ModelResult parse(int status, String body) {
        try (JsonReader reader = JsonText.reader(body)) {
            JsonObject o = reader.readObject();
            Long prompt = null;
            Long completion = null;
            if (o.get("usage") instanceof JsonObject usage) {
                prompt = usage.get("prompt_tokens") instanceof JsonNumber n ? n.longValue() : null;
                completion = usage.get("completion_tokens") instanceof JsonNumber n ? n.longValue() : null;
            }
            String content = null;
            if (o.get("choices") instanceof JsonArray choices && !choices.isEmpty()
                    && choices.get(0) instanceof JsonObject choice && choice.get("message") instanceof JsonObject m
                    && m.get("content") instanceof JsonString s) {
                content = s.getString();
            }
            return ModelResult.completed(status, prompt, completion, content);
        } catch (RuntimeException e) {
            // it ran and was billed, but the answer is unreadable: completed, usage unknown
            return ModelResult.completed(status, null, null, abbreviate(body, 2_000));
        }
    }
}
