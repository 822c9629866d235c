package io.lastcall.dispatch;

import io.lastcall.job.DeadlineSemantics;
import io.lastcall.job.JsonText;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.impl.HttpProcessors;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.http.protocol.HttpProcessor;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Speaks the OpenAI chat-completions API to a model backend, in two steps so that nothing is
 * sent after the final check: {@link #connect} leases and opens a connection (TCP and, for
 * https, TLS) with a connect timeout bounded by the job's remaining lifetime; the caller then
 * makes the last deadline check and commits HANDED_OFF; {@link Connection#send} then writes the
 * request at once. Apache HttpClient 5's explicit connection leasing is what allows "connected,
 * nothing written yet" (README, "Why Apache HttpClient 5"). Each request carries the deadline
 * ({@code X-Lastcall-Deadline}, epoch ms) and the attempt id as idempotency key; the response,
 * headers and body, is bounded by the call's timeout and by {@code lastcall.model.max-response-bytes}.
 */
@ApplicationScoped
public class ModelClient {

    public static final String DEADLINE_HEADER = "X-Lastcall-Deadline";

    /** Who is calling, for the request headers, and how long the answer may take. */
    public record Call(String jobId, String attemptId, long expiresAt, DeadlineSemantics semantics, long timeoutMs) {
    }

    private static final HttpProcessor PROTOCOL = HttpProcessors.client("lastcall");

    private final PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(1_000).setMaxConnPerRoute(1_000).build();
    private final HttpRequestExecutor executor = new HttpRequestExecutor();

    /**
     * A connection to the backend at {@code baseUrl} (the {@code /v1} root), ready to write.
     *
     * @throws IOException the backend was not reached within {@code connectTimeoutMs}: nothing was written
     */
    public Connection connect(String baseUrl, long connectTimeoutMs) throws IOException {
        URI uri = URI.create(baseUrl + "/chat/completions");
        HttpHost host = HttpHost.create(uri);
        HttpRoute route = new HttpRoute(host, null, "https".equalsIgnoreCase(host.getSchemeName()));
        Timeout timeout = Timeout.ofMilliseconds(Math.max(1, connectTimeoutMs));
        long started = System.nanoTime();
        LeaseRequest lease = pool.lease(null, route, timeout, null);
        ConnectionEndpoint endpoint;
        try {
            endpoint = lease.get(timeout);
        } catch (TimeoutException e) {
            lease.cancel();
            throw new IOException("no connection to " + host + " free within " + connectTimeoutMs + " ms", e);
        } catch (ExecutionException e) {
            throw new IOException("leasing a connection to " + host + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while leasing a connection to " + host, e);
        }
        try {
            if (!endpoint.isConnected()) {
                long left = connectTimeoutMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                if (left < 1) {
                    throw new IOException("no time left to connect to " + host);
                }
                pool.connect(endpoint, TimeValue.ofMilliseconds(left), HttpClientContext.create());
            }
        } catch (IOException | RuntimeException e) {
            discard(endpoint);
            throw e instanceof IOException io ? io : new IOException(e);
        }
        return new Connection(uri, endpoint);
    }

    /** An open connection that has not written anything; close it whether or not it was used. */
    public final class Connection implements AutoCloseable {
        private final URI uri;
        private final ConnectionEndpoint endpoint;
        private boolean reusable;

        private Connection(URI uri, ConnectionEndpoint endpoint) {
            this.uri = uri;
            this.endpoint = endpoint;
        }

        /**
         * Writes the request at once and reads the answer within {@code call.timeoutMs()}.
         *
         * @param notProcessed statuses that mean "not processed" (may be retried)
         */
        public ModelResult send(String payload, Call call, String apiKey, Set<Integer> notProcessed,
                int maxResponseBytes) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(call.timeoutMs());
            ClassicRequestBuilder builder = ClassicRequestBuilder.post(uri)
                    .setHeader("Accept", "application/json")
                    .setHeader(DEADLINE_HEADER, Long.toString(call.expiresAt()))
                    .setHeader("X-Lastcall-Deadline-Semantics", call.semantics().name())
                    .setHeader("X-Lastcall-Job-Id", call.jobId())
                    .setHeader("X-Lastcall-Attempt-Id", call.attemptId())
                    .setHeader("Idempotency-Key", call.attemptId())
                    .setEntity(new StringEntity(payload, ContentType.APPLICATION_JSON));
            if (apiKey != null) {
                builder.setHeader("Authorization", "Bearer " + apiKey);
            }
            ClassicHttpRequest request = builder.build();
            HttpClientContext context = HttpClientContext.create();
            try {
                endpoint.setSocketTimeout(Timeout.ofMilliseconds(Math.max(1, call.timeoutMs())));
                executor.preProcess(request, PROTOCOL, context);
                try (ClassicHttpResponse response = endpoint.execute(call.attemptId(), request, executor, context)) {
                    int status = response.getCode();
                    Body body = read(response, deadline, maxResponseBytes);
                    reusable = body.complete();
                    if (status / 100 != 2) {
                        return ModelResult.error(status, "HTTP " + status + ": " + abbreviate(body.text(), 300),
                                notProcessed.contains(status));
                    }
                    if (!body.complete()) {
                        return ModelResult.completed(status, null, null, abbreviate(body.text(), 2_000));
                    }
                    return parse(status, body.text());
                }
            } catch (java.net.SocketTimeoutException e) {
                return ModelResult.unknown("no complete response within " + call.timeoutMs() + " ms: " + e.getMessage());
            } catch (IOException | HttpException | RuntimeException e) {
                return ModelResult.unknown("connection failed after the request was written: " + e);
            }
        }

        /** Returns a fully read connection to the pool, else closes it. */
        @Override
        public void close() {
            if (reusable) {
                pool.release(endpoint, null, TimeValue.ofSeconds(30));
            } else {
                discard(endpoint);
            }
        }

        /** Reads at most {@code max} bytes of the body, giving up at {@code deadline} (nanoTime). */
        private Body read(ClassicHttpResponse response, long deadline, int max) throws IOException {
            if (response.getEntity() == null) {
                return new Body("", true);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[8_192];
            try (InputStream in = response.getEntity().getContent()) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    out.write(chunk, 0, Math.min(n, max - out.size()));
                    if (out.size() >= max || System.nanoTime() > deadline) {
                        return new Body(out.toString(StandardCharsets.UTF_8), false);
                    }
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    endpoint.setSocketTimeout(Timeout.ofMilliseconds(Math.max(1, left)));
                }
            }
            return new Body(out.toString(StandardCharsets.UTF_8), true);
        }
    }

    /** A response body as far as it was read; {@code complete} when it ended within the bounds. */
    private record Body(String text, boolean complete) {
    }

    private void discard(ConnectionEndpoint endpoint) {
        endpoint.close(CloseMode.IMMEDIATE);
        pool.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
    }

    @PreDestroy
    void shutdown() {
        pool.close(CloseMode.IMMEDIATE);
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
