package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Predictive admission against the model's live latency. The spy answers model
 * {@code spy-delay-N} after N ms, so after a few answers the server knows that class takes about
 * N ms from claim to answer. Then a LATEST_USEFUL_COMPLETION job with less time than that: with
 * admission {@code on} (workload it-predictive) it ends EXPIRED_NOT_STARTED/PREDICTED_LATE and the
 * spy never sees it; in {@code shadow} (incident-summary) it is sent, answered late, and the
 * stats count it as predicted late and answered late, with what it cost. A job with time enough
 * is sent and answered on time in both.
 */
@ExtendWith(ArquillianExtension.class)
class PredictiveAdmissionIT extends SpyBackedDeployment {

    private static final long LATENCY_MS = 1_500;
    /** lastcall.admission.min-samples in it-domain.env, plus one */
    private static final int WARM_UP = 6;

    @Test
    void onRefusesWhatTheLiveP95PutsPastTheDeadlineWithoutARequest() {
        String model = "spy-delay-" + LATENCY_MS;
        JsonObject before = admission("it-predictive");
        warmUp("it-predictive", model);

        List<String> hurried = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = Jobs.newId("predicted-late");
            assertEquals(201, Jobs.submit(useful(id, "it-predictive", model, Jobs.now() + 1_000)).status());
            hurried.add(id);
        }
        String patient = Jobs.newId("predicted-on-time");
        assertEquals(201, Jobs.submit(useful(patient, "it-predictive", model, Jobs.now() + 20_000)).status());

        for (String id : hurried) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(30));
            assertEquals("EXPIRED_NOT_STARTED", job.getString("state"), job.toString());
            assertEquals("PREDICTED_LATE", job.getString("reason"), job.toString());
            assertEquals(0, spy.requestsFor(id).size(), "never sent: " + id);
        }
        JsonObject onTime = Jobs.awaitOutcome(patient, Duration.ofSeconds(30));
        assertEquals("COMPLETED", onTime.getString("state"), onTime.toString());
        assertEquals("ON_TIME", onTime.getString("reason"), onTime.toString());
        assertEquals(1, spy.requestsFor(patient).size());

        JsonObject after = admission("it-predictive");
        assertEquals("on", after.getString("mode"));
        assertEquals(3, after.getJsonNumber("refused").longValue() - before.getJsonNumber("refused").longValue());
        assertTrue(money(after, "refused_estimate").compareTo(money(before, "refused_estimate")) > 0,
                "the refused jobs' estimates count as money not spent: " + after);
        assertEquals(money(before, "late_spend"), money(after, "late_spend"), "nothing was spent on a late answer");

        // the backend's figures mix every model and length of the window (other tests' quick answers too)
        JsonObject backend = backends().stream().filter(b -> b.getJsonNumber("answers_in_window").longValue() > WARM_UP)
                .findFirst().orElseThrow(() -> new AssertionError("no backend shows the answers: " + backends()));
        assertTrue(backend.getJsonNumber("latency_p95_ms").longValue() >= backend.getJsonNumber("latency_p50_ms")
                .longValue() && backend.getJsonNumber("latency_p50_ms").longValue() > 0, backend.toString());
    }

    @Test
    void shadowSendsItAndCountsTheForecastAgainstWhatHappened() {
        String model = "spy-delay-1400";
        JsonObject before = admission("incident-summary");
        warmUp("incident-summary", model);

        List<String> hurried = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String id = Jobs.newId("shadow-late");
            assertEquals(201, Jobs.submit(useful(id, "incident-summary", model, Jobs.now() + 900)).status());
            hurried.add(id);
        }
        for (String id : hurried) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(30));
            assertEquals("COMPLETED", job.getString("state"), job.toString());
            assertEquals("LATE", job.getString("reason"), "answered after its deadline, as forecast: " + job);
            assertEquals(1, spy.requestsFor(id).size(), "shadow refuses nothing: " + id);
        }
        JsonObject after = admission("incident-summary");
        assertEquals("shadow", after.getString("mode"));
        assertEquals(0, after.getJsonNumber("refused").longValue() - before.getJsonNumber("refused").longValue());
        assertEquals(2, count(after, before, "predicted_late"), "the two hurried jobs were forecast late: " + after);
        assertEquals(2, count(after, before, "predicted_late_answered_late"), after.toString());
        assertEquals(0, count(after, before, "false_refusals"), after.toString());
        assertTrue(money(after, "predicted_late_spend").compareTo(money(before, "predicted_late_spend")) > 0,
                "what their late answers cost is what on would have saved: " + after);
        assertTrue(money(after, "late_spend").compareTo(money(before, "late_spend")) > 0, after.toString());
    }

    /** Answers of the class, on time: the server's live latency learns it. */
    private void warmUp(String workload, String model) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < WARM_UP; i++) {
            String id = Jobs.newId("warm-up");
            assertEquals(201, Jobs.submit(useful(id, workload, model, Jobs.now() + 60_000)).status());
            ids.add(id);
        }
        for (String id : ids) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(60));
            assertEquals("ON_TIME", job.getString("reason"), job.toString());
        }
    }

    private static JsonObjectBuilder useful(String id, String workload, String model, long expiresAt) {
        return Jobs.envelope(id, expiresAt, model).add("workload", workload)
                .add("deadline_semantics", "LATEST_USEFUL_COMPLETION").add("min_execution_ms", 100);
    }

    private static JsonObject admission(String workload) {
        JsonObject w = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads").getJsonObject(workload);
        if (w == null) {
            // no job of the workload yet
            return jakarta.json.Json.createObjectBuilder().add("mode", "").add("refused", 0).add("refused_estimate", 0)
                    .add("late_spend", 0).add("predicted_late", 0).add("false_refusals", 0)
                    .add("predicted_late_answered_late", 0).add("predicted_late_spend", 0).build();
        }
        return w.getJsonObject("admission");
    }

    private static List<JsonObject> backends() {
        return Api.get("/api/stats").json().asJsonObject().getJsonArray("backends").getValuesAs(JsonObject.class);
    }

    private static long count(JsonObject after, JsonObject before, String key) {
        return after.getJsonNumber(key).longValue() - before.getJsonNumber(key).longValue();
    }

    private static BigDecimal money(JsonObject admission, String key) {
        return admission.getJsonNumber(key).bigDecimalValue();
    }
}
