package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import io.lastcall.it.Api.Reply;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The promise under faults (docs/operating.md, "Failure behaviour"): a backend slow to accept, gateway
 * errors, database and broker restarts, hostile and oversized input, unaccountable requests,
 * owed publishes, a TTL cap shorter than a job's lifetime, a server killed in a burst. Asserted
 * on the dispatch spy's record, the ledger (REST API) and the broker, never on logs; after each
 * test a reconciler pass must find the invariant intact.
 */
@ExtendWith(ArquillianExtension.class)
class FaultsIT extends SpyBackedDeployment {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String INCIDENT_QUEUE = "it.lastcall.work.incident-summary";
    private static final int STALL_PORT = 14891;

    @AfterEach
    void invariantHoldsAfterEveryTest() {
        JsonObject report = Await.until("a reconciler pass with the invariant intact", WAIT, Jobs::reconcile,
                r -> r.getBoolean("invariant_holds"));
        assertEquals(List.of(), report.getJsonArray("failures").getValuesAs(JsonValue::toString));
    }

    // 1. no request leaves after its deadline

    @Test
    void aBackendThatAcceptsTooLateNeverReceivesTheRequestAndTheJobExpiresBeforeDispatch() throws Exception {
        try (StallingBackend backend = new StallingBackend(STALL_PORT)) {
            assertTrue(backend.stalls(), "the backend's accept queue is full: a connect hangs");
            String id = Jobs.newId("stalled");
            long expiresAt = Jobs.now() + 1_500;

            Jobs.submit(Jobs.envelope(id, expiresAt, "spy-ok").add("workload", "it-stall"));

            JsonObject job = Jobs.awaitOutcome(id, WAIT);
            assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
            assertEquals("BEFORE_DISPATCH", job.getString("reason"));
            JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
            assertEquals("NOT_SENT", attempt.getString("state"), attempt.toString());
            assertEquals(0, attempt.getJsonNumber("reserved").bigDecimalValue().signum(), "reservation released");
            Await.sleep(Math.max(0, expiresAt + 500 - Jobs.now()));
            List<String> received = backend.acceptAndRecord(1_000);
            assertTrue(received.stream().noneMatch(r -> r.contains("POST") || r.contains(id)),
                    "nothing was written to the backend, at or after the deadline: " + received);
        }
    }

    @Test
    void theFinalCheckIsMadeWithTheConnectionOpenAndTheWireTimeIsRecorded() {
        String id = Jobs.newId("wire");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));

        JsonObject attempt = Jobs.awaitOutcome(id, WAIT).getJsonArray("attempts").getJsonObject(0);
        assertEquals("COMPLETED", attempt.getString("state"));
        assertFalse(attempt.isNull("check_to_last_byte_ms"), attempt.toString());
        assertTrue(attempt.getJsonNumber("check_to_last_byte_ms").longValue() >= 0);
        assertFalse(attempt.isNull("instance_id"), "the claiming server is recorded");
    }

    @Test
    void aDeadlineThatPassesWhileTheHandoffWritesItsRowsEndsTheJobWithNothingHandedOffOrWritten() {
        assumeTrue(ItConfig.postgres(), "the slow trigger is PostgreSQL's");
        // the real database takes 3 s to write this job's HANDED_OFF: its deadline passes during the
        // handoff's flush, after the checks before it and before the last check
        String id = Jobs.newId("handoff-slow");
        JsonObject job = outcomeWithAttemptTrigger("lc_it_slow_handoff",
                "IF NEW.state = 'HANDED_OFF' AND NEW.job_id LIKE 'handoff-slow-%' THEN PERFORM pg_sleep(3); END IF;",
                id, 2_000);
        assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
        assertEquals("BEFORE_DISPATCH", job.getString("reason"));
        assertEquals(1, job.getJsonArray("attempts").size(), job.toString());
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals("NOT_SENT", attempt.getString("state"), attempt.toString());
        assertEquals("deadline passed before the handoff", attempt.getString("error"), attempt.toString());
        assertTrue(attempt.getJsonNumber("finished_at").longValue() - attempt.getJsonNumber("claimed_at").longValue()
                >= 3_000, "refused after the slow flush, not before it: " + attempt);
        assertTrue(attempt.isNull("handed_off_at"), "the HANDED_OFF written before the last check was rolled back: "
                + attempt);
        assertEquals(0, attempt.getJsonNumber("reserved").bigDecimalValue().signum(), "reservation released");
        assertEquals(0, spy.requestsFor(id).size(), "nothing was written");
    }

    // 2. a gateway error is not proof that the call did not run

    @Test
    void aGatewayTimeoutIsRecordedOnceWithItsExposureRetainedNeverRetried() {
        String id = Jobs.newId("gateway");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-status-504"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("EXECUTION_FAILED", job.getString("outcome"), job.toString());
        assertEquals("HTTP_ERROR", job.getString("reason"));
        Await.sleep(2_500); // longer than every retry tier: a retry would have reached the spy by now
        assertEquals(1, spy.requestsFor(id).size(), "exactly one request");
        assertEquals(1, job.getJsonArray("attempts").size());
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals(504, attempt.getInt("http_status"));
        assertEquals(attempt.getJsonNumber("estimate").bigDecimalValue(),
                attempt.getJsonNumber("reserved").bigDecimalValue(), "the exposure stays reserved");
    }

    // 3. a database or broker blip must not quarantine or drop the backlog

    @Test
    void aDatabaseRestartDuringProcessingQuarantinesNothingAndSendsNothingTwice() {
        assumeTrue(ItConfig.postgres(), "the database restart runs against PostgreSQL");
        // 60 jobs of 200 ms calls to a backend that closes its connection after every answer
        DispatchSpy closing = DispatchSpy.closing();
        List<String> ids = submitBurst("db-blip", 60, "spy-delay-200", "it-close");
        try {
            Await.until("processing under way", WAIT, () -> ids.stream()
                    .filter(id -> !closing.requestsFor(id).isEmpty()).count(), n -> n >= 3);
            Postgres.cluster("restart");
        } finally {
            Postgres.ensureRunning();
        }
        assertEveryJobEndsOnceMostlyCompleted(ids, closing);
    }

    @Test
    void aHandoffTheDatabaseRefusesIsRecordedNotSentAndRetriedNotLeftHandedOffUnwritten() {
        assumeTrue(ItConfig.postgres(), "the refusing trigger is PostgreSQL's");
        // the real database refuses this job's first HANDED_OFF: the handoff fails, as one does when the
        // database goes away during it (which may even have committed it)
        String id = Jobs.newId("handoff-refused");
        JsonObject job = outcomeWithAttemptTrigger("lc_it_refuse_first_handoff",
                "IF NEW.state = 'HANDED_OFF' AND NEW.job_id LIKE 'handoff-refused-%' AND NOT EXISTS"
                        + " (SELECT 1 FROM lc_attempt a WHERE a.job_id = NEW.job_id AND a.state = 'NOT_SENT')"
                        + " THEN RAISE EXCEPTION 'FaultsIT refuses the first handoff of %', NEW.job_id; END IF;",
                id, 60_000);
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertEquals(2, job.getJsonArray("attempts").size(), job.toString());
        JsonObject refused = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals("NOT_SENT", refused.getString("state"), job.toString());
        assertTrue(refused.getString("error").startsWith("not written: the handoff failed"), job.toString());
        assertEquals("COMPLETED", job.getJsonArray("attempts").getJsonObject(1).getString("state"), job.toString());
        assertEquals(1, spy.requestsFor(id).size(), "one request: the refused handoff wrote nothing");
    }

    @Test
    void callsThatFinishWhileTheDatabaseIsDownAreRecordedCompletedWithTheirUsageOnceItIsBack() {
        assumeTrue(ItConfig.postgres(), "the database stop runs against PostgreSQL");
        // the domain's two permits: two calls of 3 s in flight when the database stops for 60 s,
        // far longer than the reconciler's grace (1 s); their settlements are retried until it is back
        List<String> ids = submitBurst("settle-outage", 2, "spy-delay-3000");
        try {
            Await.until("both calls at the model", WAIT, () -> ids.stream().filter(id -> !spy.requestsFor(id).isEmpty())
                    .count(), n -> n == 2);
            Postgres.cluster("stop");
            Await.sleep(60_000);
        } finally {
            Postgres.ensureRunning();
        }
        for (String id : ids) {
            JsonObject job = Await.until("an outcome for " + id, Duration.ofSeconds(120), () -> {
                Jobs.reconcile();
                return Jobs.get(id);
            }, j -> j != null && !j.isNull("outcome"));
            assertEquals("COMPLETED", job.getString("outcome"), job.toString());
            JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
            assertEquals(DispatchSpy.PROMPT_TOKENS, attempt.getJsonObject("usage").getJsonNumber("prompt_tokens")
                    .longValue(), attempt.toString());
            assertEquals(1, spy.requestsFor(id).size());
        }
        // the settlements were retried on their own; the pool's other connections may still be the dead
        // ones: the after-test invariant needs a reconciler pass that the restarted database answers
        Await.until("a reconciler pass without failures after the outage", WAIT, () -> {
            JsonObject report = Jobs.reconcile();
            return report.containsKey("failures") ? report.getJsonArray("failures").size() : -1;
        }, failures -> failures == 0);
    }

    @Test
    void aSubmissionWhileTheDatabaseIsDownIsRefused503AsJsonAndTheSameEnvelopeIsAcceptedAfter() {
        assumeTrue(ItConfig.postgres(), "the database stop runs against PostgreSQL");
        String id = Jobs.newId("db-down");
        // a workload no other test submits: this is its first submission of the server run, made
        // while the database is down (it once left the workload without its accepted counter)
        var envelope = Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok").add("workload", "it-db-down").build();
        Reply refused;
        try {
            Postgres.cluster("stop");
            refused = Jobs.submit(Json.createObjectBuilder(envelope));
        } finally {
            Postgres.ensureRunning();
            // whatever this test then finds, the next one starts with a ledger that answers
            Await.until("the ledger answers again", WAIT, () -> Api.get("/api/health").status(), s -> s == 200);
        }
        assertEquals(503, refused.status(), String.valueOf(refused.json()));
        assertEquals("LEDGER_UNAVAILABLE", refused.json().asJsonObject().getString("reason"));
        JsonObject job = Await.until("the same envelope accepted once the database is back", WAIT,
                () -> Jobs.submit(Json.createObjectBuilder(envelope)), r -> r.status() == 201 || r.status() == 200)
                .json().asJsonObject();
        assertEquals(id, job.getString("job_id"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(id, WAIT).getString("outcome"));
        assertEquals(1, spy.requestsFor(id).size());
    }

    @Test
    void aBrokerRestartDuringABurstQuarantinesNothingAndSendsNothingTwice() {
        DispatchSpy closing = DispatchSpy.closing();
        List<String> ids = new ArrayList<>(submitBurst("broker-blip", 30, "spy-delay-200", "it-close"));
        try {
            Await.until("processing under way", WAIT, () -> ids.stream()
                    .filter(id -> !closing.requestsFor(id).isEmpty()).count(), n -> n >= 3);
            Broker.rabbitmqctl("stop_app");
            // jobs submitted while the broker is down stay ACCEPTED, owed a publish
            ids.addAll(submitBurst("broker-down", 30, "spy-delay-200", "it-close"));
        } finally {
            Broker.rabbitmqctl("start_app");
        }
        Await.until("consumers back", WAIT, () -> Api.get("/api/health"), r -> r.status() == 200);
        assertEveryJobEndsOnceMostlyCompleted(ids, closing);
    }

    /**
     * Submits one spy-ok job of the given lifetime while a BEFORE UPDATE trigger on lc_attempt runs
     * {@code plpgsqlBody} (PostgreSQL's real database refusing or slowing a write), and its outcome;
     * the trigger and its function are dropped whatever happens.
     */
    private static JsonObject outcomeWithAttemptTrigger(String name, String plpgsqlBody, String id, long lifetimeMs) {
        Postgres.sql("CREATE OR REPLACE FUNCTION " + name + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + plpgsqlBody + " RETURN NEW; END $$");
        Postgres.sql("CREATE TRIGGER " + name + " BEFORE UPDATE ON lc_attempt FOR EACH ROW EXECUTE FUNCTION " + name + "()");
        try {
            Jobs.submit(Jobs.envelope(id, Jobs.now() + lifetimeMs, "spy-ok"));
            return Jobs.awaitOutcome(id, WAIT);
        } finally {
            Postgres.sql("DROP TRIGGER IF EXISTS " + name + " ON lc_attempt");
            Postgres.sql("DROP FUNCTION IF EXISTS " + name + "()");
        }
    }

    private List<String> submitBurst(String prefix, int count, String model) {
        return submitBurst(prefix, count, model, "incident-summary");
    }

    private List<String> submitBurst(String prefix, int count, String model, String workload) {
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> submitted = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                submitted.add(clients.submit(() -> {
                    String id = Jobs.newId(prefix);
                    Reply reply = Jobs.submit(Jobs.envelope(id, Jobs.now() + 90_000, model).add("workload", workload));
                    assertEquals(201, reply.status(), reply.json().toString());
                    return id;
                }));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> f : submitted) {
                ids.add(f.get());
            }
            return ids;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            clients.shutdownNow();
        }
    }

    /** Every job ends once, none sent twice (by {@code backend}'s record), at least 95 % COMPLETED. */
    private void assertEveryJobEndsOnceMostlyCompleted(List<String> ids, DispatchSpy backend) {
        Map<String, String> outcomes = new HashMap<>();
        for (String id : ids) {
            JsonObject job = Await.until("an outcome for " + id + " (requests the backend saw of it, counted at the"
                    + " start of the wait: " + backend.requestsFor(id).size() + ")", Duration.ofSeconds(120), () -> {
                Jobs.reconcile();
                return Jobs.get(id);
            }, j -> j != null && !j.isNull("outcome"));
            outcomes.put(id, job.getString("outcome"));
            assertTrue(backend.requestsFor(id).size() <= 1, id + " requested " + backend.requestsFor(id).size() + " times");
            assertTrue(job.getJsonArray("attempts").size() <= 1 || !"COMPLETED".equals(job.getString("outcome"))
                    || job.getJsonArray("attempts").stream().filter(a -> a.asJsonObject().getString("state")
                            .equals("COMPLETED")).count() == 1, job.toString());
        }
        Map<String, Long> counts = outcomes.values().stream().collect(Collectors.groupingBy(o -> o,
                Collectors.counting()));
        assertFalse(counts.containsKey("QUARANTINED"), counts.toString());
        assertTrue(counts.getOrDefault("COMPLETED", 0L) >= Math.ceil(ids.size() * 0.95), counts.toString());
    }

    // 4. hostile or oversized input never kills a consumer or turns into a 500

    @Test
    void headerNamesNoJmsPropertyMayHaveAreQuarantinedAndTheConsumersStay() {
        JsonObject before = Api.get("/api/health").json().asJsonObject();
        String messageId = Jobs.newId("hostile-headers");
        Map<String, Object> headers = new HashMap<>();
        headers.put(" ", "x");
        headers.put("1a", "y");
        Broker.publish(INCIDENT_QUEUE, new AMQP.BasicProperties.Builder().messageId(messageId).deliveryMode(2)
                .headers(headers).build(), "{\"job_id\":\"x\"}".getBytes(StandardCharsets.UTF_8));

        JsonObject quarantined = Await.until("the message quarantined", WAIT, () -> quarantined(messageId),
                q -> q != null);
        assertEquals("MESSAGE_UNREADABLE", quarantined.getString("reason"), quarantined.toString());
        Reply health = Api.get("/api/health");
        assertEquals(200, health.status(), health.json().toString());
        assertEquals(connected(before), connected(health.json().asJsonObject()), "no consumer lost");
        String id = Jobs.newId("after-hostile");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(id, WAIT).getString("outcome"));
        Await.until("nothing left on the queue", WAIT, () -> Broker.counts(INCIDENT_QUEUE),
                c -> c.ready() == 0 && c.unacked() == 0);
    }

    @Test
    void oversizedOrUnstorableValuesAreRefusedAtIngressOrQuarantinedNeverLost() {
        Reply longSubject = Jobs.submit(Jobs.envelope(Jobs.newId("long"), Jobs.now() + 30_000, "spy-ok")
                .add("subject", "s".repeat(5_000)));
        assertEquals(400, longSubject.status(), longSubject.json().toString());
        assertEquals("SUBJECT_INVALID", longSubject.json().asJsonObject().getString("reason"));

        String huge = "{\"job_id\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}";
        Reply tooLarge = Jobs.post(huge);
        assertEquals(413, tooLarge.status(), "5 MB");
        assertEquals("BODY_TOO_LARGE", tooLarge.json().asJsonObject().getString("reason"));

        String longId = "m".repeat(250);
        Broker.publish(INCIDENT_QUEUE, longId, "{\"job_id\":\"nobody\",\"generation\":0,\"expires_at\":1,"
                + "\"schema_version\":1}");
        JsonObject byLongId = Await.until("the 250-character message id quarantined", WAIT,
                () -> quarantined(longId.substring(0, 100)), q -> q != null);
        assertEquals("REFERENCE_UNKNOWN_JOB", byLongId.getString("reason"));

        String nulId = Jobs.newId("nul");
        Broker.publish(INCIDENT_QUEUE, nulId, "{\"job_id\":\"a\u0000b\",\"generation\":0,\"expires_at\":1,"
                + "\"schema_version\":1}");
        JsonObject withNul = Await.until("the message with U+0000 quarantined", WAIT, () -> quarantined(nulId),
                q -> q != null);
        assertTrue(withNul.getString("body").contains("\\u0000"), withNul.toString());
        Await.until("nothing left on the queue", WAIT, () -> Broker.counts(INCIDENT_QUEUE),
                c -> c.ready() == 0 && c.unacked() == 0);
    }

    private static JsonObject quarantined(String messageIdPart) {
        return Api.get("/api/quarantine?limit=200").json().asJsonArray().stream().map(JsonValue::asJsonObject)
                .filter(q -> !q.isNull("message_id") && q.getString("message_id").contains(messageIdPart))
                .findFirst().orElse(null);
    }

    private static int connected(JsonObject health) {
        return health.getJsonObject("broker").getJsonArray("consumers").stream()
                .mapToInt(c -> c.asJsonObject().getInt("consumers_connected")).sum();
    }

    // 5. money that cannot be bypassed

    @Test
    void streamedRequestsAreRefusedAtIngressBeforeTheyCanCostAnything() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String id = Jobs.newId("stream");
            ids.add(id);
            Reply reply = Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok").add("workload", "it-budget")
                    .add("payload", Json.createObjectBuilder().add("model", "spy-ok").add("max_tokens", 64)
                            .add("stream", true).add("messages", Json.createArrayBuilder().add(Json
                                    .createObjectBuilder().add("role", "user").add("content", "summarize")))));
            assertEquals(422, reply.status(), reply.json().toString());
            assertEquals("PAYLOAD_NOT_ACCOUNTABLE", reply.json().asJsonObject().getString("reason"));
        }
        ids.forEach(id -> assertEquals(null, Jobs.get(id), "nothing persisted"));
        ids.forEach(id -> assertEquals(List.of(), spy.requestsFor(id)));
    }

    @Test
    void aCompletionWithoutUsageCostsItsEstimateFlaggedNeverZero() {
        String id = Jobs.newId("no-usage");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-nousage"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertTrue(attempt.getBoolean("usage_missing"), attempt.toString());
        BigDecimal estimate = attempt.getJsonNumber("estimate").bigDecimalValue();
        assertEquals(0, estimate.compareTo(attempt.getJsonNumber("cost").bigDecimalValue()), "cost = estimate");
        assertNotEquals(0, estimate.signum());
    }

    // 6. every path still ends

    @Test
    void jobsThatEndedWhileOwedAPublishNeverCrowdOutOneThatIsStillOwed() {
        List<String> ended = new ArrayList<>();
        String owed = Jobs.newId("owed");
        Broker.withChannel(channel -> channel.exchangeDelete(Broker.WORK_EXCHANGE));
        try {
            ExecutorService clients = Executors.newFixedThreadPool(4);
            try {
                List<Future<String>> all = new ArrayList<>();
                for (int i = 0; i < 600; i++) {
                    all.add(clients.submit(() -> {
                        String id = Jobs.newId("ended-owed");
                        Jobs.submit(Jobs.envelope(id, Jobs.now() + 120_000, "spy-ok"));
                        assertEquals(200, Jobs.cancel(id).status());
                        return id;
                    }));
                }
                for (Future<String> f : all) {
                    ended.add(f.get());
                }
            } finally {
                clients.shutdownNow();
            }
            Jobs.submit(Jobs.envelope(owed, Jobs.now() + 60_000, "spy-ok"));
            assertEquals("ACCEPTED", Jobs.get(owed).getString("state"), "its publish was not confirmed");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            Broker.restoreWorkExchange();
        }
        JsonObject job = Await.until("the owed job republished and completed", WAIT, () -> {
            Jobs.reconcile();
            return Jobs.get(owed);
        }, j -> !j.isNull("outcome"));
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertEquals(1, spy.requestsFor(owed).size());
        ended.forEach(id -> assertEquals(List.of(), spy.requestsFor(id)));
    }

    @Test
    void aQueueTtlCapShorterThanTheLifetimeDoesNotExpireALiveJob() {
        Jobs.occupyConsumers(spy, 0, 6_000, "it-ttlcap");
        String id = Jobs.newId("ttl-cap");

        Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok").add("workload", "it-ttlcap"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertTrue(Api.deliveries("it.lastcall.dead").stream().anyMatch(d -> d.messageId().equals("ID:" + id)),
                "the 2 s cap dead-lettered it at least once and it was published again");
        assertEquals(1, spy.requestsFor(id).size());
    }

    @Test
    void aNewerRevisionIsNeverSupersededByAnOlderAnnouncement() {
        Jobs.occupyConsumers(spy, 0, 4_000);
        String subject = "REV-" + Jobs.newId("s");
        String r9 = Jobs.newId("r9");
        Jobs.submit(Jobs.envelope(r9, Jobs.now() + 60_000, "spy-ok").add("subject", subject)
                .add("source_revision", "r9"));

        JsonObject older = Jobs.post("/api/subjects/" + subject + "/revisions", "{\"source_revision\":\"r8\"}")
                .json().asJsonObject();
        assertEquals(0, older.getJsonArray("superseded").size(), older.toString());
        JsonObject newer = Jobs.post("/api/subjects/" + subject + "/revisions", "{\"source_revision\":\"r10\"}")
                .json().asJsonObject();
        assertEquals(List.of("\"" + r9 + "\""), newer.getJsonArray("superseded").getValuesAs(JsonValue::toString));
        assertEquals("SUPERSEDED", Jobs.awaitOutcome(r9, WAIT).getString("outcome"));
        assertEquals(List.of(), spy.requestsFor(r9));
    }

    @Test
    void aQueueThatCannotBeConsumedIsReportedWhileTheOthersGoOn() {
        Reply health = Api.get("/api/health");
        assertEquals(200, health.status(), health.json().toString());
        List<String> missing = health.json().asJsonObject().getJsonObject("broker").getJsonArray("consumers")
                .stream().flatMap(c -> c.asJsonObject().getJsonArray("missing_queues").stream())
                .map(v -> ((jakarta.json.JsonString) v).getString()).distinct().toList();
        assertEquals(List.of("it.lastcall.work.it-unknown"), missing, "never declared, listed in lastcall.worker.queue");
        String id = Jobs.newId("beside-missing");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(id, WAIT).getString("outcome"));
    }

    @Test
    void theInvariantFailsWhenAnAcceptedJobRowIsMissing() {
        assumeTrue(ItConfig.postgres(), "the row is removed with psql");
        String id = Jobs.newId("vanishing");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(id, WAIT).getString("outcome"));
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
        String row = Postgres.sql("select row_to_json(j)::text from lc_job j where job_id = '" + id + "'");
        Postgres.sql("delete from lc_job where job_id = '" + id + "'");
        try {
            JsonObject report = Jobs.reconcile();
            assertFalse(report.getBoolean("invariant_holds"), report.toString());
            JsonObject incident = report.getJsonObject("workloads").getJsonObject("incident-summary");
            assertEquals(incident.getJsonNumber("accepted").longValue() - 1, incident.getJsonNumber("jobs").longValue());
        } finally {
            Postgres.sql("insert into lc_job select * from json_populate_record(null::lc_job, '"
                    + row.replace("'", "''") + "')");
        }
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
    }

    @Test
    void aServerKilledInABurstClosesItsPreviousHandoffsAtRestart() throws Exception {
        assumeTrue(ItConfig.postgres(), "the restart scenarios run against PostgreSQL");
        // two permits: the calls run two at a time, 3 s each; the server dies in the second round
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = Jobs.newId("burst-crash");
            Jobs.submit(Jobs.envelope(id, Jobs.now() + 120_000, "spy-delay-3000").add("workload", "it-crash"));
            ids.add(id);
        }
        Await.until("the second round of calls in flight", WAIT, () -> ids.stream()
                .filter(id -> !spy.requestsFor(id).isEmpty()).count(), n -> n >= 4);
        Server.kill();
        Server.restart();
        long restartedAt = Jobs.now();
        Map<String, Long> outcomes = new HashMap<>();
        for (String id : ids) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(90));
            outcomes.merge(job.getString("outcome") + "/" + job.getString("reason"), 1L, Long::sum);
            assertTrue(spy.requestsFor(id).size() <= 1, "never sent twice: " + job);
            if (job.getString("outcome").equals("OUTCOME_UNKNOWN")) {
                assertEquals("SERVER_RESTARTED", job.getString("reason"), job.toString());
                assertTrue(job.getJsonObject("trace").getJsonNumber("finished_at").longValue() <= restartedAt + 15_000,
                        "ended within one reconciler period of the restart: " + job);
            } else {
                assertEquals("COMPLETED", job.getString("outcome"), job.toString());
            }
        }
        assertTrue(outcomes.getOrDefault("OUTCOME_UNKNOWN/SERVER_RESTARTED", 0L) >= 1,
                "the calls in flight at the kill: " + outcomes);
    }
}
