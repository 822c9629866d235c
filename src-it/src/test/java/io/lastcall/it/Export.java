package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The ledger as its export shows it, and batches submitted in one request. */
final class Export {

    private static final Set<String> OPEN = Set.of("ACCEPTED", "QUEUED", "DELIVERED", "WAITING_PERMIT", "CLAIMED",
            "HANDED_OFF");

    private Export() {
    }

    /** Submits the envelopes as one batch; all {@code n} must be accepted. */
    static void submitBatch(JsonArrayBuilder batch, int n) {
        submitBatch(ItConfig.baseUrl(), batch, n);
    }

    /** As {@link #submitBatch(JsonArrayBuilder, int)}, to the server at {@code baseUrl}. */
    static void submitBatch(String baseUrl, JsonArrayBuilder batch, int n) {
        Api.Reply accepted = Api.sendTo(baseUrl, "POST", "/api/jobs/batch", Json.createObjectBuilder().add("jobs", batch)
                .build().toString(), ItConfig.user("submitter"));
        assertEquals(n, accepted.json().asJsonObject().getInt("accepted"), String.valueOf(accepted.json()));
    }

    /** The export's rows (one per attempt) of a workload's jobs accepted since {@code from}. */
    static List<JsonObject> rows(String workload, long from) {
        Api.Reply reply = Api.get("/api/jobs/export?format=json&workload=" + workload + "&from=" + from);
        assertEquals(200, reply.status(), String.valueOf(reply.json()));
        return reply.json().asJsonArray().stream().map(JsonValue::asJsonObject).toList();
    }

    /** How many rows ended in each state/reason ("COMPLETED/ON_TIME"), sorted. */
    static Map<String, Long> outcomes(List<JsonObject> rows) {
        return new TreeMap<>(rows.stream().collect(Collectors.groupingBy(
                r -> r.getString("state") + "/" + r.getString("reason", "-"), Collectors.counting())));
    }

    /** Waits until {@code n} jobs of the workload accepted since {@code from} have an outcome; their rows. */
    static List<JsonObject> awaitEnded(String workload, long from, int n) {
        Function<List<JsonObject>, Long> ended = rows -> rows.stream().filter(r -> !OPEN.contains(r.getString("state")))
                .map(r -> r.getString("job_id")).distinct().count();
        return Await.until(n + " jobs of " + workload + " ended", Duration.ofSeconds(300), () -> rows(workload, from),
                rows -> ended.apply(rows) >= n);
    }
}
