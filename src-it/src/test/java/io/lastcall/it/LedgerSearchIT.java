package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Reply;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Ledger search with keyset pagination, scoped for submitters, and the streaming export. */
@ExtendWith(ArquillianExtension.class)
class LedgerSearchIT extends SpyBackedDeployment {

    @Test
    void searchPagesThroughAFilterAndExportStreamsOneRowPerAttempt() {
        long from = Jobs.now();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = Jobs.newId("search");
            Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));
            ids.add(id);
        }
        String other = Jobs.newId("search-other");
        Api.send("POST", "/api/jobs", Jobs.envelope(other, Jobs.now() + 30_000, "spy-ok").build().toString(),
                ItConfig.user("submitter2"));
        ids.forEach(id -> Jobs.awaitOutcome(id, Duration.ofSeconds(60)));
        Jobs.awaitOutcome(other, Duration.ofSeconds(60));

        List<String> seen = new ArrayList<>();
        String query = "/api/jobs?workload=incident-summary&outcome=COMPLETED&limit=2&from=" + from;
        String next = null;
        int pages = 0;
        do {
            Reply page = Api.get(query + (next == null ? "" : "&after=" + next));
            assertEquals(200, page.status(), page.json().toString());
            page.json().asJsonObject().getJsonArray("jobs").stream().map(JsonValue::asJsonObject)
                    .forEach(j -> seen.add(j.getString("job_id")));
            next = page.json().asJsonObject().isNull("next") ? null : page.json().asJsonObject().getString("next");
            pages++;
        } while (next != null && pages < 10);
        List<String> expected = new ArrayList<>(ids);
        expected.add(other);
        assertEquals(expected.stream().sorted().toList(), seen.stream().sorted().toList(), "every job once");
        assertTrue(pages >= 3, "limit 2 pages through 6 jobs");

        Reply mine = Api.send("GET", "/api/jobs?from=" + from, null, ItConfig.user("submitter2"));
        assertEquals(List.of(other), mine.json().asJsonObject().getJsonArray("jobs").stream()
                .map(j -> j.asJsonObject().getString("job_id")).toList(), "a submitter sees only its own");

        Reply bad = Api.get("/api/jobs?outcome=HANDED_OFF");
        assertEquals(400, bad.status());
        assertEquals("FILTER_INVALID", bad.json().asJsonObject().getString("reason"));

        Reply csv = Api.get("/api/jobs/export?format=csv&from=" + from);
        assertEquals(200, csv.status());
        String text = csv.json().asJsonArray().getString(0);
        List<String> lines = text.lines().toList();
        assertTrue(lines.get(0).startsWith("job_id,workload,state,reason"), lines.get(0));
        // a call not started within its handoff window is NOT_SENT and retried: count the attempts the jobs have
        int attempts = expected.stream().mapToInt(id -> Jobs.get(id).getJsonArray("attempts").size()).sum();
        assertTrue(attempts >= 6, "at least one attempt per job: " + attempts);
        assertEquals(1 + attempts, lines.size(), "a header and one row per attempt: " + text);
        ids.forEach(id -> assertTrue(text.contains(id + ",incident-summary,COMPLETED,ON_TIME"), text));

        Reply json = Api.get("/api/jobs/export?format=json&from=" + from);
        assertEquals(attempts, json.json().asJsonArray().size());
        JsonObject row = json.json().asJsonArray().stream().map(JsonValue::asJsonObject)
                .filter(r -> "COMPLETED".equals(r.getString("attempt_state"))).findFirst().orElseThrow();
        assertEquals(DispatchSpy.PROMPT_TOKENS, row.getJsonNumber("prompt_tokens").longValue());
        assertTrue(row.getJsonNumber("cost").bigDecimalValue().signum() > 0);
    }
}
