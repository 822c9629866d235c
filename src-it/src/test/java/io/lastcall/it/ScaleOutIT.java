package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two Payara domains from the build (src-it-scale/pom.xml: "lastcall-scale-a" and
 * "lastcall-scale-b", each with lastcall.ear deployed) on one PostgreSQL ledger and one broker,
 * consuming the same work queue. 500 jobs with mixed deadlines; server B is killed -9 while it
 * has a call in flight, and started again only after server A closed what B left (its lease
 * lapsed). Every job ends once, none is sent twice or late, the invariant holds, and the spy saw
 * exactly the requests the ledger says were written.
 */
@EnabledIfSystemProperty(named = "lastcall.it.scaleout", matches = "true")
class ScaleOutIT {

    private static final int JOBS = 500;
    private static final Duration WAIT = Duration.ofMinutes(4);

    private final String a = ItConfig.baseUrl();
    private final String b = System.getProperty("lastcall.it.base-url-b");

    @Test
    void twoServersKeepThePromiseWhileOneIsKilledAndRestarted() throws Exception {
        DispatchSpy spy = DispatchSpy.get();
        String idA = instanceOf(a);
        String idB = instanceOf(b);
        assertNotEquals(idA, idB, "each server has its own instance id");
        assertEquals(Set.of(idA, idB), liveInstances(a), "A sees both leases");

        Random random = new Random(11);
        Map<String, Long> deadlines = new TreeMap<>();
        List<String> slow = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            String id = Jobs.newId("scale");
            boolean shortLived = i % 5 == 0;
            // a fifth must start within 0.15-1.5 s: some make it, some expire on the way
            long expiresAt = Jobs.now() + (shortLived ? 150 + random.nextInt(1_350) : 150_000);
            // the last 25 take 3 s at the model: calls still in flight when the submitting is done
            String model = i >= JOBS - 25 || i % 10 == 3 ? "spy-delay-3000" : i % 3 == 0 ? "spy-delay-200" : "spy-ok";
            if (model.equals("spy-delay-3000")) {
                slow.add(id);
            }
            // alternate the servers' ingress; both publish to the same exchange
            int status = submit(i % 2 == 0 ? a : b, Jobs.envelope(id, expiresAt, model).build().toString());
            assertEquals(201, status, id);
            deadlines.put(id, expiresAt);
        }

        long heartbeatB = heartbeatOf(a, idB);
        // a 3 s call received at most 2 s ago: still in flight when the kill lands a moment later
        String inFlightOnB = Await.until("a call of server B in flight", WAIT, () -> slow.stream()
                .filter(id -> spy.requestsFor(id).size() == 1)
                .filter(id -> spy.requestsFor(id).get(0).receivedAt() > System.currentTimeMillis() - 2_000)
                .filter(id -> handedOffBy(id, idB)).findFirst().orElse(null), id -> id != null);
        Server.killPayaraDomain(System.getProperty("lastcall.it.domain-b"));
        try {
            // B's last heartbeat, as A reads it, unless B's lease lapsed already (a late renewal)
            heartbeatB = Math.max(heartbeatB, heartbeatOf(a, idB));

            JsonObject lost = Await.until("server A closes B's handoff once B's lease lapsed", WAIT,
                    () -> job(a, inFlightOnB), j -> !j.isNull("outcome"));
            assertEquals("OUTCOME_UNKNOWN/SERVER_LOST", lost.getString("outcome") + "/" + lost.getString("reason"),
                    lost.toString());
            long closedAt = lost.getJsonObject("trace").getJsonNumber("finished_at").longValue();
            long leaseMs = leaseMs(a);
            assertTrue(closedAt >= heartbeatB + leaseMs, "not before B's lease lapsed: its last heartbeat "
                    + heartbeatB + ", lease " + leaseMs + " ms, " + lost);
            assertEquals(Set.of(idA), liveInstances(a), "B's lease lapsed");
        } finally {
            Server.start(System.getProperty("lastcall.it.domain-b"), System.getProperty("lastcall.it.portbase-b"),
                    "postgres");
            Await.until("server B is back", Duration.ofMinutes(2), () -> health(b), s -> s == 200);
        }

        // read on B too: its API answers from the same ledger
        Map<String, JsonObject> ended = EndedJobs.await(deadlines.keySet(), b, WAIT);
        Await.sleep(1_000);

        Map<String, Long> outcomes = EndedJobs.check(ended, deadlines, spy);
        System.out.println("scale-out: " + JOBS + " jobs on " + idA + " and " + idB + ": " + outcomes);
        assertTrue(outcomes.getOrDefault("COMPLETED/ON_TIME", 0L) > JOBS / 2, outcomes.toString());

        EndedJobs.assertInvariant(a);
        EndedJobs.assertInvariant(b);
        assertEquals(Set.of(idA, idB), liveInstances(b), "B's new boot holds a lease again");
    }

    static int submit(String server, String envelope) {
        return Api.sendTo(server, "POST", "/api/jobs", envelope, ItConfig.user("submitter")).status();
    }

    static JsonObject job(String server, String id) {
        Api.Reply reply = Api.sendTo(server, "GET", "/api/jobs/" + id, null, ItConfig.user("operator"));
        return reply.status() == 200 ? reply.json().asJsonObject() : null;
    }

    private boolean handedOffBy(String id, String instance) {
        JsonObject job = job(a, id);
        return job != null && "HANDED_OFF".equals(job.getString("state")) && job.getJsonArray("attempts")
                .getValuesAs(JsonObject.class).stream().anyMatch(at -> "HANDED_OFF".equals(at.getString("state"))
                        && instance.equals(at.getString("instance_id")));
    }

    static int health(String server) {
        try {
            return Api.sendTo(server, "GET", "/api/health", null, ItConfig.user("operator")).status();
        } catch (IllegalStateException down) {
            return 0;
        }
    }

    private static JsonObject instance(String server) {
        return Api.sendTo(server, "GET", "/api/health", null, ItConfig.user("operator")).json().asJsonObject()
                .getJsonObject("instance");
    }

    private static String instanceOf(String server) {
        return instance(server).getString("id");
    }

    private static long leaseMs(String server) {
        return instance(server).getJsonNumber("lease_ms").longValue();
    }

    /** The heartbeat of that instance's live boot as the server reads it, or 0 when none holds a lease. */
    private static long heartbeatOf(String server, String instanceId) {
        return instance(server).getJsonArray("live").getValuesAs(JsonObject.class).stream()
                .filter(l -> instanceId.equals(l.getString("instance_id")))
                .mapToLong(l -> l.getJsonNumber("heartbeat_at").longValue()).max().orElse(0);
    }

    private static Set<String> liveInstances(String server) {
        return instance(server).getJsonArray("live").getValuesAs(JsonObject.class).stream()
                .map(l -> l.getString("instance_id")).collect(Collectors.toSet());
    }
}
