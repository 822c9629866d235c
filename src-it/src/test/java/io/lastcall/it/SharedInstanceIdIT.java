package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two live servers given one instance id by mistake (the scale-out domains, server B restarted
 * with A's id while A has calls in flight): B's startup does not take A's handoffs for its own
 * previous boot's — A's calls complete — and both servers report the shared id as DOWN with the
 * cause. B is restarted with its own id in the end, and both are healthy again.
 */
@EnabledIfSystemProperty(named = "lastcall.it.scaleout", matches = "true")
class SharedInstanceIdIT {

    private static final Duration WAIT = Duration.ofMinutes(3);

    private final String a = ItConfig.baseUrl();
    private final String b = System.getProperty("lastcall.it.base-url-b");
    private final String domainB = System.getProperty("lastcall.it.domain-b");
    private final String portbaseB = System.getProperty("lastcall.it.portbase-b");

    @Test
    void twoLiveServersWithOneInstanceIdLeaveEachOthersCallsAloneAndSaySo() throws Exception {
        DispatchSpy spy = DispatchSpy.get();
        String idA = instanceOf(a);
        List<String> ids = new ArrayList<>();
        Server.stop(domainB, portbaseB);
        try {
            // only A consumes now: six 40 s calls, all handed off by A
            for (int i = 0; i < 6; i++) {
                String id = Jobs.newId("shared-id");
                assertEquals(201, ScaleOutIT.submit(a, Jobs.envelope(id, Jobs.now() + 120_000, "spy-delay-40000")
                        .build().toString()));
                ids.add(id);
            }
            Await.until("A's calls at the model", WAIT, () -> ids.stream()
                    .filter(id -> spy.requestsFor(id).size() == 1).count(), n -> n == ids.size());
            Server.start(domainB, portbaseB, "postgres", Map.of("LASTCALL_INSTANCE_ID", idA));
            for (String server : List.of(a, b)) {
                JsonObject health = Await.until("the shared id reported by " + server, WAIT, () -> health(server),
                        h -> h != null && h.getString("cause", "").contains("is also used by"));
                assertEquals("DOWN", health.getString("status"), health.toString());
            }
            for (String id : ids) {
                JsonObject job = Await.until("an outcome for " + id, WAIT, () -> ScaleOutIT.job(a, id),
                        j -> j != null && !j.isNull("outcome"));
                assertEquals("COMPLETED", job.getString("outcome"), "not closed by B's startup: " + job);
                assertEquals(1, spy.requestsFor(id).size(), id);
            }
        } finally {
            Server.stop(domainB, portbaseB);
            Server.start(domainB, portbaseB, "postgres");
            Await.until("both servers healthy with their own ids", WAIT,
                    () -> ScaleOutIT.health(a) + ScaleOutIT.health(b), sum -> sum == 400);
        }
        assertTrue(!instanceOf(b).equals(idA), "B has its own id again");
    }

    private static JsonObject health(String server) {
        try {
            return Api.sendTo(server, "GET", "/api/health", null, ItConfig.user("operator")).json().asJsonObject();
        } catch (IllegalStateException down) {
            return null;
        }
    }

    private static String instanceOf(String server) {
        return health(server).getJsonObject("instance").getString("id");
    }
}
