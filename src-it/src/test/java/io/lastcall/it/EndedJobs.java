package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.DispatchSpy.Request;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The promise, checked over a set of ended jobs against the requests the spy recorded. */
final class EndedJobs {

    /** Attempt states whose request was written to the backend (or may have been, for UNKNOWN). */
    private static final Set<String> WRITTEN = Set.of("HANDED_OFF", "COMPLETED", "FAILED", "UNKNOWN");

    private EndedJobs() {
    }

    /** Waits until every job has an outcome, reading them from the server at {@code baseUrl}. */
    static Map<String, JsonObject> await(Collection<String> ids, String baseUrl, Duration timeout) {
        Map<String, JsonObject> ended = new TreeMap<>();
        for (String id : ids) {
            ended.put(id, Await.until("an outcome for " + id, timeout, () -> {
                Api.Reply reply = Api.sendTo(baseUrl, "GET", "/api/jobs/" + id, null, ItConfig.user("operator"));
                return reply.status() == 200 ? reply.json().asJsonObject() : null;
            }, j -> j != null && !j.isNull("outcome")));
        }
        return ended;
    }

    /**
     * Every job was sent at most once and never after its deadline (by the spy's clock and by the
     * ledger's handoff time), and the spy saw exactly the requests the ledger says were written —
     * except an OUTCOME_UNKNOWN handoff whose server died between its commit and the write.
     * Returns the count per OUTCOME/REASON.
     */
    static Map<String, Long> check(Map<String, JsonObject> ended, Map<String, Long> deadlines, DispatchSpy spy) {
        int written = 0;
        int unknownUnwritten = 0;
        for (Map.Entry<String, JsonObject> e : ended.entrySet()) {
            String id = e.getKey();
            JsonObject job = e.getValue();
            List<Request> requests = spy.requestsFor(id);
            assertTrue(requests.size() <= 1, "never sent twice: " + job);
            for (Request r : requests) {
                assertTrue(r.receivedAt() <= deadlines.get(id), "never sent late: " + r + " " + job);
            }
            List<JsonObject> attempts = job.getJsonArray("attempts").getValuesAs(JsonObject.class);
            assertEquals(0, attempts.stream().filter(a -> !a.isNull("handed_off_at"))
                    .filter(a -> a.getJsonNumber("handed_off_at").longValue() > deadlines.get(id)).count(),
                    "no handoff after the deadline: " + job);
            long writtenHere = attempts.stream().filter(a -> WRITTEN.contains(a.getString("state"))).count();
            written += (int) writtenHere;
            if (writtenHere != requests.size()) {
                assertEquals("OUTCOME_UNKNOWN", job.getString("outcome"), "written but not received: " + job);
                unknownUnwritten++;
            }
        }
        int requested = ended.keySet().stream().mapToInt(id -> spy.requestsFor(id).size()).sum();
        assertEquals(written - unknownUnwritten, requested, "the spy's requests are the attempts written");
        Map<String, Long> outcomes = ended.values().stream().collect(Collectors.groupingBy(
                j -> j.getString("outcome") + "/" + j.getString("reason"), TreeMap::new, Collectors.counting()));
        System.out.println(ended.size() + " jobs: " + outcomes + "; " + requested + " requests; "
                + unknownUnwritten + " unknown handoffs never received");
        return outcomes;
    }

    /** One reconciler pass on that server: the invariant holds, nothing claimed twice, nothing in flight. */
    static void assertInvariant(String baseUrl) {
        JsonObject report = Api.sendTo(baseUrl, "POST", "/api/reconcile", "", ItConfig.user("operator")).json()
                .asJsonObject();
        assertTrue(report.getBoolean("invariant_holds"), report.toString());
        JsonObject w = report.getJsonObject("workloads").getJsonObject("incident-summary");
        assertEquals(0, w.getJsonNumber("double_claims").longValue(), w.toString());
        assertEquals(0, w.getJsonNumber("in_flight").longValue(), w.toString());
    }
}
