package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jobs waiting for a full per-minute limit get the refill in deadline order: workload it-ordered
 * (the spy under a backend key of its own, declared at 60 requests a minute, so lastcall refills one
 * request a second) is drained, then eight jobs are published latest deadline first. From the
 * ledger: every job that was held by this server while a later-due one was handed off was itself
 * handed off before it. With a timer per waiter, the refill goes to whichever thread runs first.
 */
@ExtendWith(ArquillianExtension.class)
class RateLimitOrderIT extends SpyBackedDeployment {

    private static final String WORKLOAD = "it-ordered";
    /** A job held this long before another's handoff was already waiting in line for the backend. */
    private static final long IN_LINE_MS = 200;

    @Test
    void theRefillGoesToTheWaitingJobDueSoonest() {
        long from = Jobs.now() - 1;
        // drain the backend's minute: half as much again as it holds (57, planned at 95 %), with
        // lifetimes that outlast the drain (a few seconds) but not many refills after it
        List<String> fillers = submit(90, i -> Jobs.now() + 8_000);
        List<JsonObject> drained = Export.awaitEnded(WORKLOAD, from, fillers.size());
        assertTrue(drained.stream().anyMatch(r -> "RATE_LIMITED".equals(r.getString("reason", null))),
                "the fillers emptied the backend's minute: " + outcomes(drained) + "; for one: " + drained.get(0));

        long orderedFrom = Jobs.now() - 1;
        long now = Jobs.now();
        List<String> ordered = submit(8, i -> now + 30_000 - i * 2_000L);
        List<JsonObject> rows = Export.awaitEnded(WORKLOAD, orderedFrom, ordered.size());
        List<JsonObject> jobs = rows.stream().filter(r -> ordered.contains(r.getString("job_id"))).toList();
        System.out.println("RateLimitOrderIT: fillers " + outcomes(drained) + "; then " + outcomes(rows)
                + "; handed off (due in s, held ms): " + jobs.stream().filter(j -> !j.isNull("handed_off_at"))
                .sorted(java.util.Comparator.comparingLong(j -> at(j, "handed_off_at")))
                .map(j -> (at(j, "expires_at") - now) / 1_000 + "s/" + (at(j, "handed_off_at") - at(j, "received_at")))
                .toList());
        assertEquals(ordered.size(), jobs.size(), String.valueOf(rows));
        for (JsonObject job : jobs) {
            assertEquals("COMPLETED", job.getString("state"), "every one fits in its lifetime: " + job);
        }
        long waited = jobs.stream().filter(j -> at(j, "handed_off_at") - at(j, "received_at") >= 500).count();
        assertTrue(waited >= 3, "jobs waited for the refill: " + waited);
        List<String> inversions = new ArrayList<>();
        for (JsonObject early : jobs) {
            for (JsonObject late : jobs) {
                boolean dueSooner = at(early, "expires_at") < at(late, "expires_at");
                boolean heldMeanwhile = at(early, "received_at") + IN_LINE_MS <= at(late, "handed_off_at");
                if (dueSooner && heldMeanwhile && at(early, "handed_off_at") > at(late, "handed_off_at")) {
                    inversions.add(early.getString("job_id") + " (due " + at(early, "expires_at") + ") after "
                            + late.getString("job_id") + " (due " + at(late, "expires_at") + ")");
                }
            }
        }
        assertEquals(List.of(), inversions, "a waiting job due sooner was handed off after one due later");
    }

    private static List<String> submit(int n, java.util.function.IntToLongFunction expiresAt) {
        List<String> ids = new ArrayList<>();
        JsonArrayBuilder batch = Json.createArrayBuilder();
        for (int i = 0; i < n; i++) {
            String id = Jobs.newId("ordered");
            batch.add(Jobs.envelope(id, expiresAt.applyAsLong(i), "spy-ok").add("workload", WORKLOAD));
            ids.add(id);
        }
        Export.submitBatch(batch, n);
        return ids;
    }

    private static long at(JsonObject row, String field) {
        return row.getJsonNumber(field).longValue();
    }

    private static Map<String, Long> outcomes(List<JsonObject> rows) {
        return new TreeMap<>(rows.stream().collect(Collectors.groupingBy(
                r -> r.getString("state") + "/" + r.getString("reason", "-"), Collectors.counting())));
    }
}
