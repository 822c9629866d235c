package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Reply;
import io.lastcall.it.DispatchSpy.Request;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The deadline gate on a real broker, server and database, with the dispatch spy as the model
 * backend. The test domain runs with 2 dispatch permits and 4 worker consumers of prefetch 1
 * (src-it/it-domain.env). "Zero handoffs" is always read off the spy's record.
 */
@ExtendWith(ArquillianExtension.class)
class DeadlineGateIT extends SpyBackedDeployment {

    private static final Duration WAIT = Duration.ofSeconds(60);


    private static JsonArray attempts(JsonObject job) {
        return job.getJsonArray("attempts");
    }

    @Test
    void freshJobIsHandedOffOnceAndCompletedWithItsUsage() {
        String id = Jobs.newId("fresh");
        long expiresAt = Jobs.now() + 30_000;

        Reply created = Jobs.submit(Jobs.envelope(id, expiresAt, "spy-ok"));

        assertEquals(201, created.status(), created.json().toString());
        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("COMPLETED", job.getString("outcome"));
        List<Request> calls = spy.requestsFor(id);
        assertEquals(1, calls.size(), "exactly one request reached the model");
        assertEquals(1, attempts(job).size());
        JsonObject attempt = attempts(job).getJsonObject(0);
        assertEquals("COMPLETED", attempt.getString("state"));
        assertEquals(DispatchSpy.PROMPT_TOKENS, attempt.getJsonObject("usage").getJsonNumber("prompt_tokens").longValue());
        assertEquals(DispatchSpy.COMPLETION_TOKENS,
                attempt.getJsonObject("usage").getJsonNumber("completion_tokens").longValue());
        assertTrue(attempt.getJsonNumber("cost").bigDecimalValue().signum() > 0, attempt.toString());
        assertFalse(attempt.getBoolean("late"));
        assertTrue(attempt.getJsonNumber("check_to_handoff_ms").longValue() >= 0);
        assertEquals(attempt.getString("attempt_id"), calls.get(0).attemptId());
        assertEquals(attempt.getString("attempt_id"), calls.get(0).idempotencyKey());
        assertEquals(Long.toString(expiresAt), calls.get(0).deadline(), "the deadline travels in a header");

        JsonObject trace = job.getJsonObject("trace");
        long accepted = trace.getJsonNumber("accepted_at").longValue();
        long received = trace.getJsonNumber("received_at").longValue();
        long permit = trace.getJsonNumber("permit_at").longValue();
        long checked = trace.getJsonNumber("checked_at").longValue();
        long handedOff = trace.getJsonNumber("handed_off_at").longValue();
        long finished = trace.getJsonNumber("finished_at").longValue();
        assertNotNull(trace.getJsonNumber("published_at"));
        assertTrue(accepted <= received && received <= permit && permit <= checked && checked <= handedOff
                && handedOff <= calls.get(0).receivedAt() && calls.get(0).receivedAt() <= finished, trace.toString());
        assertEquals(expiresAt, trace.getJsonNumber("expires_at").longValue());

        Reply repeat = Jobs.submit(Jobs.envelope(id, expiresAt, "spy-ok"));
        assertEquals(200, repeat.status(), "a repeat returns the existing job");
        assertEquals("COMPLETED", repeat.json().asJsonObject().getString("state"));
        Reply extended = Jobs.submit(Jobs.envelope(id, expiresAt + 60_000, "spy-ok"));
        assertEquals(409, extended.status());
        assertEquals("DEADLINE_CONFLICT", extended.json().asJsonObject().getString("reason"));
        assertEquals(expiresAt, Jobs.get(id).getJsonNumber("expires_at").longValue(), "the deadline never moves");
        assertEquals(1, spy.requestsFor(id).size());
    }

    @Test
    void jobsWaitingLocallyPastTheirDeadlineExpireAtTheGateWithoutAHandoff() {
        List<String> holders = List.of(Jobs.newId("permit-holder"), Jobs.newId("permit-holder"));
        holders.forEach(h -> Jobs.submit(Jobs.envelope(h, Jobs.now() + 30_000, "spy-delay-5000")));
        Await.until("slow jobs hold both permits", WAIT, () -> holders.stream().allMatch(h ->
                spy.requestsFor(h).size() == 1), ok -> ok);
        String late1 = Jobs.newId("waiter");
        String late2 = Jobs.newId("waiter");
        long deadline = Jobs.now() + 2_500;

        assertEquals(201, Jobs.submit(Jobs.envelope(late1, deadline, "spy-ok")).status());
        assertEquals(201, Jobs.submit(Jobs.envelope(late2, deadline, "spy-ok")).status());

        JsonObject waiting = Await.until("both wait locally for a permit", WAIT,
                () -> Api.get("/api/health").json().asJsonObject().getJsonObject("dispatch"),
                d -> d.getInt("waiting") == 2);
        assertEquals(2, waiting.getInt("in_use"));
        for (String id : List.of(late1, late2)) {
            JsonObject job = Jobs.awaitOutcome(id, WAIT);
            assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
            assertEquals("BEFORE_DISPATCH", job.getString("reason"));
            assertEquals(0, attempts(job).size(), "no claim, no attempt");
            assertNotNull(job.getJsonObject("trace").getJsonNumber("received_at"), "it was delivered");
        }
        holders.forEach(h -> assertEquals("COMPLETED", Jobs.awaitOutcome(h, WAIT).getString("outcome")));
        Await.sleep(500);
        assertEquals(List.of(), spy.requestsFor(late1), "zero handoffs");
        assertEquals(List.of(), spy.requestsFor(late2), "zero handoffs");
    }

    @Test
    void twoDeliveriesOfOneJobMakeOneClaimAndOneCall() {
        String id = Jobs.newId("twice");
        long expiresAt = Jobs.now() + 30_000;
        Jobs.submit(Jobs.envelope(id, expiresAt, "spy-delay-1500"));

        publishReference(id, expiresAt);

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        Await.until("both deliveries received", WAIT,
                () -> Api.deliveries(ItConfig.workerQueue()).stream().filter(d -> d.messageId().equals("ID:" + id))
                        .count(), n -> n == 2);
        assertEquals("COMPLETED", job.getString("outcome"));
        assertEquals(1, attempts(job).size(), "one claim, one attempt");
        assertEquals(1, job.getJsonNumber("generation").longValue());
        Await.sleep(500);
        assertEquals(1, spy.requestsFor(id).size(), "one call");
    }

    @Test
    void aLateResponseIsRecordedWithItsCostAndFlaggedLate() {
        String id = Jobs.newId("late");
        JsonObjectBuilder envelope = Jobs.envelope(id, Jobs.now() + 2_500, "spy-delay-4000")
                .add("deadline_semantics", "LATEST_USEFUL_COMPLETION").add("min_execution_ms", 500);

        assertEquals(201, Jobs.submit(envelope).status());

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertEquals("LATE", job.getString("reason"));
        JsonObject attempt = attempts(job).getJsonObject(0);
        assertTrue(attempt.getBoolean("late"));
        assertTrue(attempt.getJsonNumber("cost").bigDecimalValue().signum() > 0, "its cost is still recorded");
        assertEquals(DispatchSpy.COMPLETION_TOKENS,
                attempt.getJsonObject("usage").getJsonNumber("completion_tokens").longValue());
        assertTrue(job.getJsonObject("trace").getJsonNumber("finished_at").longValue() > job.getJsonNumber("expires_at")
                .longValue());
        assertEquals(1, spy.requestsFor(id).size());
    }

    @Test
    void aTimeoutAfterHandoffIsAnUnknownOutcomeAndIsNotRetried() {
        String id = Jobs.newId("timeout");
        // workload it-short: the client gives up after 1.5 s; the spy answers after 4 s
        assertEquals(201, Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-delay-4000")
                .add("workload", "it-short")).status());

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("OUTCOME_UNKNOWN", job.getString("outcome"), job.toString());
        JsonObject attempt = attempts(job).getJsonObject(0);
        assertEquals("UNKNOWN", attempt.getString("state"));
        assertEquals(attempt.getJsonNumber("estimate").bigDecimalValue(), attempt.getJsonNumber("reserved")
                .bigDecimalValue(), "the exposure stays reserved");
        Await.sleep(4_000);
        assertEquals(1, spy.requestsFor(id).size(), "no second call");
        assertEquals(1, attempts(Jobs.get(id)).size());
    }

    @Test
    void everyIngressRejectionIsItsOwn4xxAndNothingIsPublished() {
        long now = Jobs.now();
        Map<String, Object[]> cases = new java.util.LinkedHashMap<>();
        cases.put("DEADLINE_MISSING", new Object[] {400, (UnaryOperator<JsonObjectBuilder>) e -> e.remove("expires_at")});
        cases.put("DEADLINE_MALFORMED", new Object[] {400, (UnaryOperator<JsonObjectBuilder>) e -> e.add("expires_at", "soon")});
        cases.put("DEADLINE_PASSED", new Object[] {422, (UnaryOperator<JsonObjectBuilder>) e -> e.add("expires_at", now - 1)});
        cases.put("DEADLINE_TOO_FAR", new Object[] {422,
                (UnaryOperator<JsonObjectBuilder>) e -> e.add("expires_at", now + 30L * 24 * 3_600_000)});
        cases.put("SCHEMA_UNSUPPORTED", new Object[] {422, (UnaryOperator<JsonObjectBuilder>) e -> e.add("schema_version", 99)});
        cases.put("REVISION_MISSING", new Object[] {400, (UnaryOperator<JsonObjectBuilder>) e -> e.remove("source_revision")});
        cases.put("SUBJECT_MISSING", new Object[] {400, (UnaryOperator<JsonObjectBuilder>) e -> e.remove("subject")});
        cases.put("WORKLOAD_UNKNOWN", new Object[] {422, (UnaryOperator<JsonObjectBuilder>) e -> e.add("workload", "nope")});
        cases.put("MIN_EXECUTION_MISSING", new Object[] {400,
                (UnaryOperator<JsonObjectBuilder>) e -> e.add("deadline_semantics", "LATEST_USEFUL_COMPLETION")});
        cases.put("MIN_EXECUTION_DOES_NOT_FIT", new Object[] {422, (UnaryOperator<JsonObjectBuilder>) e -> e
                .add("deadline_semantics", "LATEST_USEFUL_COMPLETION").add("min_execution_ms", 60_000)});
        cases.put("PAYLOAD_INVALID", new Object[] {400,
                (UnaryOperator<JsonObjectBuilder>) e -> e.add("payload", Json.createObjectBuilder().add("model", "m"))});
        List<String> ids = new java.util.ArrayList<>();
        cases.forEach((reason, c) -> {
            String id = Jobs.newId("reject");
            ids.add(id);
            @SuppressWarnings("unchecked")
            UnaryOperator<JsonObjectBuilder> change = (UnaryOperator<JsonObjectBuilder>) c[1];
            Reply reply = Jobs.submit(change.apply(Jobs.envelope(id, now + 30_000, "spy-ok")));
            assertEquals(c[0], reply.status(), reason + ": " + reply.json());
            assertEquals(reason, reply.json().asJsonObject().getString("reason"));
            assertFalse(reply.json().asJsonObject().getString("message").isBlank());
        });
        Reply notJson = Jobs.post("{not json");
        assertEquals(400, notJson.status());
        assertEquals("BODY_MALFORMED", notJson.json().asJsonObject().getString("reason"));

        Await.sleep(1_000);
        for (String id : ids) {
            assertNull(Jobs.get(id), "no job " + id);
            assertEquals(List.of(), spy.requestsFor(id));
        }
        List<String> delivered = Api.deliveries(ItConfig.workerQueue()).stream().map(Api.Delivery::messageId).toList();
        ids.forEach(id -> assertFalse(delivered.contains("ID:" + id), "nothing published for " + id));
    }

    @Test
    void untrustedReferencesAreQuarantinedAndNeverDispatched() {
        String known = Jobs.newId("known");
        long expiresAt = Jobs.now() + 30_000;
        Jobs.submit(Jobs.envelope(known, expiresAt, "spy-ok"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(known, WAIT).getString("outcome"));
        String unknown = Jobs.newId("forged");

        publishReference(known, expiresAt + 60_000);
        publishReference(unknown, expiresAt);
        Broker.publish(ItConfig.workerQueue(), "garbage-" + unknown, "this is not a reference");

        Map<String, String> reasons = Map.of(known, "REFERENCE_DEADLINE_MISMATCH", unknown, "REFERENCE_UNKNOWN_JOB");
        reasons.forEach((jobId, reason) -> Await.until(reason + " for " + jobId, WAIT, DeadlineGateIT::quarantine,
                q -> q.stream().anyMatch(e -> jobId.equals(e.getString("job_id", null))
                        && reason.equals(e.getString("reason")))));
        Await.until("the malformed body quarantined", WAIT, DeadlineGateIT::quarantine,
                q -> q.stream().anyMatch(e -> ("ID:garbage-" + unknown).equals(e.getString("message_id"))
                        && "REFERENCE_MALFORMED".equals(e.getString("reason"))));
        Await.sleep(500);
        assertEquals(1, spy.requestsFor(known).size(), "the forged deadline caused no call");
        assertEquals(List.of(), spy.requestsFor(unknown));
        assertNull(Jobs.get(unknown), "a message cannot create a job");
        assertEquals(expiresAt, Jobs.get(known).getJsonNumber("expires_at").longValue());
    }

    private static List<JsonObject> quarantine() {
        return Api.get("/api/quarantine").json().asJsonArray().stream().map(JsonValue::asJsonObject).toList();
    }

    private static void publishReference(String jobId, long expiresAt) {
        Broker.publish(ItConfig.workerQueue(), jobId, Json.createObjectBuilder().add("job_id", jobId)
                .add("generation", 0).add("expires_at", expiresAt).add("schema_version", 1).build().toString());
    }
}
