package io.lastcall.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.job.Deadline;
import io.lastcall.transport.PreparedRequest;
import java.io.IOException;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The model client against backends that behave as real servers do at the transport level: no
 * request is lost to a connection the server closed, a request not completely written is not sent,
 * and the call (write and answer) is bounded by its timeout.
 */
class ModelClientTransportTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ModelClient client = new ModelClient(scheduler);

    ModelClientTransportTest() {
        client.start();
    }

    @AfterEach
    void stop() {
        client.shutdown();
        scheduler.shutdownNow();
    }

    private ModelResult send(RawBackend backend) throws IOException {
        return ModelClientConnectionTest.send(client, backend.baseUrl(), "{\"model\":\"m\"}");
    }

    @Test
    void aBackendThatClosesAfterEachAnswerLosesNoRequest() throws IOException {
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.CLOSE_AFTER_ANSWER, 30_000)) {
            for (int i = 0; i < 200; i++) {
                assertEquals(ModelResult.Kind.COMPLETED, send(backend).kind(), "call " + i);
            }
            assertEquals(200, backend.requests().size());
            assertEquals(200, backend.connections(), "an HTTP/1.0 answer's connection is never reused");
        }
    }

    @Test
    void aConnectionTheServerClosedWhileIdleIsNotLeased() throws Exception {
        // the server's idle timeout (300 ms) is shorter than lastcall's keep-alive (800 ms)
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.KEEP_ALIVE, 300)) {
            for (int i = 0; i < 10; i++) {
                assertEquals(ModelResult.Kind.COMPLETED, send(backend).kind(), "call " + i);
                Thread.sleep(i % 2 == 0 ? 20 : 400);
            }
            assertEquals(10, backend.requests().size());
            assertTrue(backend.connections() >= 5, "closed connections were replaced: " + backend.connections());
            assertTrue(backend.connections() < 10, "open ones were reused: " + backend.connections());
        }
    }

    @Test
    void aConnectionTheServerClosesAfterTheLeaseIsNotWrittenTo() throws Exception {
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.KEEP_ALIVE, 300)) {
            assertEquals(ModelResult.Kind.COMPLETED, send(backend).kind());
            try (ModelClient.Connection connection = client.connect(backend.baseUrl(), 2_000)) {
                PreparedRequest request = connection.prepare("{\"model\":\"m\"}",
                        new ModelClient.Call("j", "attempt-2", Deadline.latestStart(1L), 5_000), null);
                assertEquals(1, backend.connections(), "the idle connection was leased");
                Thread.sleep(600); // the server's idle timeout (300 ms) falls between the lease and the write
                ModelClient.Sent sent = connection.write(request, System.nanoTime() + 1_000_000_000L,
                        System.currentTimeMillis() + 1_000, Clock.systemUTC());
                assertFalse(sent.written(), "a request written into a closing connection would be unknown");
                assertTrue(sent.notWrittenBecause().contains("closed the connection"), sent.notWrittenBecause());
            }
            assertEquals(1, backend.requests().size());
        }
    }

    @Test
    void aResetInTheMiddleOfTheAnswerIsUnknown() throws IOException {
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.RESET_MID_ANSWER, 30_000)) {
            ModelResult result = send(backend);
            assertEquals(ModelResult.Kind.UNKNOWN, result.kind(), "the whole request was written: it may have run");
            assertEquals(1, backend.requests().size());
        }
    }

    @Test
    void aBackendThatNeverReadsCannotHoldTheCallPastItsTimeout() throws IOException {
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.NEVER_READ, 30_000)) {
            ModelClient.Call call = new ModelClient.Call("j", "a", Deadline.latestStart(1L), 1_000);
            long started = System.nanoTime();
            try (ModelClient.Connection connection = client.connect(backend.baseUrl(), 2_000)) {
                // far more than the socket buffers hold
                PreparedRequest request = connection.prepare("{\"p\":\"" + "x".repeat(32 << 20) + "\"}", call, null);
                ModelClient.Sent sent = connection.write(request, System.nanoTime() + 10_000_000_000L,
                        System.currentTimeMillis() + 10_000, Clock.systemUTC());
                assertFalse(sent.written(), "not completely written: not sent");
                assertNotNull(sent.notWrittenBecause());
            }
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMs < 5_000, "bounded by the 1 s call timeout, took " + tookMs + " ms");
            assertEquals(0, backend.requests().size());
        }
    }

    @Test
    void aTrickledAnswerCannotHoldTheCallPastItsTimeout() throws IOException {
        try (RawBackend backend = new RawBackend(RawBackend.Behaviour.TRICKLE, 30_000)) {
            ModelClient.Call call = new ModelClient.Call("j", "a", Deadline.latestStart(1L), 1_000);
            long started = System.nanoTime();
            ModelResult result;
            try (ModelClient.Connection connection = client.connect(backend.baseUrl(), 2_000)) {
                PreparedRequest request = connection.prepare("{}", call, null);
                assertTrue(connection.write(request, System.nanoTime() + 1_000_000_000L,
                        System.currentTimeMillis() + 1_000, Clock.systemUTC()).written());
                result = connection.answer(Set.of(429), 4_096, 800, Clock.systemUTC());
            }
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertEquals(ModelResult.Kind.UNKNOWN, result.kind());
            assertTrue(tookMs < 3_000, "bounded by the 1 s call timeout, took " + tookMs + " ms");
        }
    }
}
