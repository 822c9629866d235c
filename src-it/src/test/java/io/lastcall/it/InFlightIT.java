package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls are not bound to consumer threads: with 50 dispatch permits and the test domain's four
 * worker consumers, 100 jobs whose calls take 2 s have at least 50 requests at the model at once;
 * every job completes, none is requested twice.
 */
@ExtendWith(ArquillianExtension.class)
class InFlightIT {

    private static final long CALL_MS = 2_000;

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        // config_ordinal 400: this deployment's permits win over the domain's environment (300)
        return Deployments.lastcallWithProbes(Map.of("config_ordinal", "400", "lastcall.dispatch.permits", "50"));
    }

    @Test
    void fiftyCallsAreInFlightAtOnceWithFourConsumers() {
        DispatchSpy spy = DispatchSpy.get();
        JsonObject health = Api.get("/api/health").json().asJsonObject();
        assertEquals(50, health.getJsonObject("dispatch").getInt("permits"));
        int consumers = health.getJsonObject("broker").getJsonArray("consumers").stream()
                .map(c -> c.asJsonObject()).filter(c -> c.getString("queue").contains("incident-summary"))
                .mapToInt(c -> c.getInt("consumers_configured")).sum();
        assertTrue(consumers <= 8, "the worker runs " + consumers + " consumers");

        List<String> ids = new ArrayList<>();
        JsonArrayBuilder batch = Json.createArrayBuilder();
        for (int i = 0; i < 100; i++) {
            String id = Jobs.newId("inflight");
            batch.add(Jobs.envelope(id, Jobs.now() + 120_000, "spy-delay-" + CALL_MS));
            ids.add(id);
        }
        // one batch, so that the submissions do not pace the calls
        Api.Reply accepted = Api.send("POST", "/api/jobs/batch", Json.createObjectBuilder().add("jobs", batch).build()
                .toString(), ItConfig.user("submitter"));
        assertEquals(100, accepted.json().asJsonObject().getInt("accepted"), String.valueOf(accepted.json()));
        for (String id : ids) {
            assertEquals("COMPLETED", Jobs.awaitOutcome(id, Duration.ofSeconds(120)).getString("outcome"), id);
            assertEquals(1, spy.requestsFor(id).size(), id + " requested once");
        }
        List<Long> starts = ids.stream().map(id -> spy.requestsFor(id).get(0).receivedAt()).sorted().toList();
        int most = 0;
        for (long start : starts) {
            // requests that arrived within one call's duration before this one are still running now
            int running = (int) starts.stream().filter(s -> s <= start && start < s + CALL_MS).count();
            most = Math.max(most, running);
        }
        assertTrue(most >= 50, "at most " + most + " requests were at the model at once");
    }
}
