package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Reply;
import io.lastcall.it.DispatchSpy.Request;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every path the broker or an operator can take ends in exactly one outcome, and money is
 * accounted per attempt. Asserted on the ledger (REST API), the broker (rabbitmqctl) and the
 * dispatch spy; after each test a reconciler pass must find the invariant intact.
 */
@ExtendWith(ArquillianExtension.class)
class AccountingIT extends SpyBackedDeployment {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String INCIDENT_QUEUE = "it.lastcall.work.incident-summary";


    @AfterEach
    void invariantHoldsAfterEveryTest() {
        JsonObject report = Jobs.reconcile();
        assertTrue(report.getBoolean("invariant_holds"), report.toString());
    }

    @Test
    void queuedBeyondItsTtlWithoutAConsumerIsDeadLetteredAndExpiredInTheBroker() {
        Jobs.occupyConsumers(spy, 0, 5_000);
        String id = Jobs.newId("stale");

        Jobs.submit(Jobs.envelope(id, Jobs.now() + 1_500, "spy-ok"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
        assertEquals("IN_BROKER", job.getString("reason"));
        assertTrue(job.getJsonObject("trace").isNull("received_at"), "never delivered to a worker");
        assertTrue(Api.deliveries("it.lastcall.dead").stream().anyMatch(d -> d.messageId().equals("ID:" + id)),
                "it came through the dead-letter queue");
        assertEquals(List.of(), spy.requestsFor(id), "zero handoffs");
    }

    @Test
    void aBacklogThatExpiresInTheBrokerTogetherIsRecordedJobByJobWithoutAModelCall() {
        Jobs.occupyConsumers(spy, 0, 6_000);
        long expiresAt = Jobs.now() + 1_500;
        List<String> ids = java.util.stream.IntStream.range(0, 40).mapToObj(i -> Jobs.newId("stale-batch")).toList();
        ids.forEach(id -> Jobs.submit(Jobs.envelope(id, expiresAt, "spy-ok")));

        Set<String> deadLettered = Await.until("every message recorded from the dead-letter queue", WAIT,
                () -> Api.deliveries("it.lastcall.dead").stream().map(d -> d.messageId().substring(3))
                        .filter(ids::contains).collect(Collectors.toSet()), s -> s.size() == ids.size());
        assertEquals(Set.copyOf(ids), deadLettered);
        for (String id : ids) {
            JsonObject job = Jobs.awaitOutcome(id, WAIT);
            assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
            assertEquals("IN_BROKER", job.getString("reason"), job.toString());
            assertEquals(List.of(), spy.requestsFor(id), "zero handoffs");
        }
    }

    @Test
    void prefetchOneThreeJobsSlowWorkerOneRefusedAtTheGateTwoExpiredInTheBroker() {
        Jobs.occupyConsumers(spy, 1, 6_000);
        long deadline = Jobs.now() + 2_000;
        List<String> ids = List.of(Jobs.newId("slow-worker"), Jobs.newId("slow-worker"), Jobs.newId("slow-worker"));

        // the first goes to the one free consumer, which then waits for a permit until its own
        // deadline, 1 s after the other two: a slow worker, still busy when their TTL ends
        Jobs.submit(Jobs.envelope(ids.get(0), deadline + 1_000, "spy-ok"));
        ids.subList(1, 3).forEach(id -> Jobs.submit(Jobs.envelope(id, deadline, "spy-ok")));

        Map<String, Long> reasons = ids.stream().map(id -> Jobs.awaitOutcome(id, WAIT))
                .peek(j -> assertEquals("EXPIRED_NOT_STARTED", j.getString("outcome"), j.toString()))
                .collect(Collectors.groupingBy(j -> j.getString("reason"), Collectors.counting()));
        assertEquals(Map.of("BEFORE_DISPATCH", 1L, "IN_BROKER", 2L), reasons,
                "the one free consumer took one to the gate; the other two waited in the queue");
        ids.forEach(id -> assertEquals(List.of(), spy.requestsFor(id), "zero handoffs"));
    }

    @Test
    void aMessageNackedWithRequeueAfterItsDeadlineKeepsTheOriginalDeadlineAndIsNotDispatched() {
        Jobs.occupyConsumers(spy, 0, 6_000);
        String id = Jobs.newId("requeued");
        long expiresAt = Jobs.now() + 1_500;
        Jobs.submit(Jobs.envelope(id, expiresAt, "spy-ok"));

        String held = Broker.holdAndRequeue(INCIDENT_QUEUE, 2_500);

        assertEquals(id, held, "the test itself held the job's message past its deadline");
        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
        assertTrue(Set.of("IN_BROKER", "BEFORE_DISPATCH").contains(job.getString("reason")), job.toString());
        assertEquals(expiresAt, job.getJsonNumber("expires_at").longValue(), "the original deadline");
        assertEquals(List.of(), spy.requestsFor(id));
    }

    @Test
    void aNotProcessedRefusalIsRetriedThroughTheTiersWithTheSameDeadlineUpToMaxAttempts() {
        String id = Jobs.newId("retry");
        long expiresAt = Jobs.now() + 30_000;

        Jobs.submit(Jobs.envelope(id, expiresAt, "spy-status-429"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("EXECUTION_FAILED", job.getString("outcome"), job.toString());
        assertEquals("ATTEMPTS_EXHAUSTED", job.getString("reason"));
        List<Request> calls = spy.requestsFor(id);
        assertEquals(3, calls.size(), "max_attempts 3");
        assertEquals(3, job.getJsonArray("attempts").size());
        assertEquals(3, calls.stream().map(Request::attemptId).distinct().count(), "a new attempt id each time");
        calls.forEach(c -> assertEquals(Long.toString(expiresAt), c.deadline(), "the same deadline each time"));
        assertTrue(calls.get(1).receivedAt() - calls.get(0).receivedAt() >= 500, "through the 500 ms tier");
        assertTrue(calls.get(2).receivedAt() - calls.get(1).receivedAt() >= 1_000, "then the 1 s tier");
    }

    @Test
    void aRetryThatFitsNoTierExpiresAndIsNotPublished() {
        String id = Jobs.newId("no-tier");

        Jobs.submit(Jobs.envelope(id, Jobs.now() + 450, "spy-status-429"));

        JsonObject job = Jobs.awaitOutcome(id, WAIT);
        assertEquals("EXPIRED_NOT_STARTED", job.getString("outcome"), job.toString());
        assertEquals("BEFORE_DISPATCH", job.getString("reason"));
        assertEquals(1, job.getJsonArray("attempts").size());
        for (long tier : new long[] {500, 1_000, 2_000}) {
            Broker.QueueCounts counts = Broker.counts("it.lastcall.retry." + tier);
            assertEquals(0, counts.ready() + counts.unacked(), "nothing in retry tier " + tier);
        }
        Await.sleep(2_500);
        assertEquals(1, spy.requestsFor(id).size(), "never sent again");
    }

    /** Attempts whose request was written (every state but NOT_SENT). */
    private static long written(JsonObject job) {
        return job.getJsonArray("attempts").getValuesAs(JsonObject.class).stream()
                .filter(a -> !"NOT_SENT".equals(a.getString("state"))).count();
    }

    @Test
    void cancellationRacingTheClaimEndsEachJobCanceledXorClaimed() throws Exception {
        int rounds = 50;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        Map<String, Integer> cancelStatus = new ConcurrentHashMap<>();
        List<Future<?>> work = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            String id = Jobs.newId("race");
            work.add(pool.submit(() -> {
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));
                Await.sleep(ThreadLocalRandom.current().nextLong(0, 60));
                cancelStatus.put(id, Jobs.cancel(id).status());
            }));
        }
        for (Future<?> f : work) {
            f.get();
        }
        pool.shutdown();

        int canceled = 0;
        for (Map.Entry<String, Integer> e : cancelStatus.entrySet()) {
            JsonObject job = Jobs.awaitOutcome(e.getKey(), WAIT);
            int attempts = job.getJsonArray("attempts").size();
            if ("CANCELED".equals(job.getString("outcome"))) {
                canceled++;
                assertEquals(200, e.getValue(), job.toString());
                // A claim whose call thread stalled past the handoff authorization ends NOT_SENT
                // and the job waits in a retry tier, where a cancel may still take it.
                assertEquals(0, written(job), "a canceled job never had an attempt written: " + job);
            } else {
                assertEquals(409, e.getValue(), "cancel refused once claimed: " + job);
                // Eight submitters on two cores can stall a call thread past the handoff
                // authorization; such an attempt is NOT_SENT (never written) and retried. Every
                // attempt but one must be that, and the one written is the spy's only request.
                long written = written(job);
                assertTrue(attempts >= 1, job.toString());
                assertEquals(1, written, "exactly one attempt was written: " + job);
            }
        }
        Await.sleep(500);
        for (Map.Entry<String, Integer> e : cancelStatus.entrySet()) {
            boolean wasCanceled = e.getValue() == 200;
            assertEquals(wasCanceled ? 0 : 1, spy.requestsFor(e.getKey()).size(), e.getKey());
        }
        assertEquals(rounds, cancelStatus.size());
        System.out.println("cancel race: " + canceled + " of " + rounds + " canceled, the rest claimed first");
    }

    @Test
    void aHandedOffJobCannotBeCanceledAndKeepsItsRealOutcome() {
        String id = Jobs.newId("too-late-to-cancel");
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-delay-1500"));
        Await.until("handed off", WAIT, () -> spy.requestsFor(id), r -> r.size() == 1);

        Reply reply = Jobs.cancel(id);

        assertEquals(409, reply.status());
        assertEquals("ALREADY_CLAIMED", reply.json().asJsonObject().getString("reason"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(id, WAIT).getString("outcome"));
    }

    @Test
    void twoClaimsRacingABudgetThatFitsOneLeaveOneBudgetDenied() {
        List<String> ids = List.of(Jobs.newId("budget"), Jobs.newId("budget"));

        ids.parallelStream().forEach(id -> Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-delay-1000")
                .add("workload", "it-budget")));

        Map<String, String> outcomes = ids.stream().collect(Collectors.toMap(id -> id,
                id -> Jobs.awaitOutcome(id, WAIT).getString("outcome")));
        assertEquals(Set.of("COMPLETED", "BUDGET_DENIED"), Set.copyOf(outcomes.values()), outcomes.toString());
        assertEquals(1, ids.stream().mapToInt(id -> spy.requestsFor(id).size()).sum(), "one call in all");
        JsonObject stats = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads")
                .getJsonObject("it-budget");
        assertEquals(1, stats.getJsonObject("outcomes").getInt("BUDGET_DENIED"));
        assertTrue(stats.getJsonNumber("actual_spend").bigDecimalValue().signum() > 0, stats.toString());
    }

    @Test
    void aNewerRevisionSupersedesQueuedJobsOfItsSubject() {
        Jobs.occupyConsumers(spy, 0, 4_000);
        String subject = "INC-" + Jobs.newId("sub");
        String old = Jobs.newId("old-rev");
        Jobs.submit(Jobs.envelope(old, Jobs.now() + 30_000, "spy-ok").add("subject", subject).add("source_revision", "r1"));

        Reply reply = Jobs.post("/api/subjects/" + subject + "/revisions",
                Json.createObjectBuilder().add("source_revision", "r2").build().toString());

        assertEquals(200, reply.status(), reply.json().toString());
        assertEquals(List.of(Json.createValue(old)), reply.json().asJsonObject().getJsonArray("superseded"));
        JsonObject job = Jobs.awaitOutcome(old, WAIT);
        assertEquals("SUPERSEDED", job.getString("outcome"));
        String current = Jobs.newId("new-rev");
        Jobs.submit(Jobs.envelope(current, Jobs.now() + 30_000, "spy-ok").add("subject", subject)
                .add("source_revision", "r2"));
        assertEquals("COMPLETED", Jobs.awaitOutcome(current, WAIT).getString("outcome"));
        Await.sleep(500);
        assertEquals(List.of(), spy.requestsFor(old));
        assertNotEquals(List.of(), spy.requestsFor(current));
    }

    @Test
    void statsSeparateSpendReservationAndAvoidedExposure() {
        String done = Jobs.newId("stats-done");
        Jobs.submit(Jobs.envelope(done, Jobs.now() + 30_000, "spy-ok"));
        Jobs.awaitOutcome(done, WAIT);
        Jobs.occupyConsumers(spy, 0, 3_000);
        String expired = Jobs.newId("stats-expired");
        Jobs.submit(Jobs.envelope(expired, Jobs.now() + 1_000, "spy-ok"));
        Jobs.awaitOutcome(expired, WAIT);

        JsonObject w = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads")
                .getJsonObject("incident-summary");
        assertTrue(w.getJsonNumber("actual_spend").bigDecimalValue().signum() > 0, w.toString());
        assertTrue(w.getJsonNumber("estimated_avoided_exposure").bigDecimalValue().signum() > 0, w.toString());
        assertTrue(w.getJsonObject("estimated_avoided_exposure_by_estimate_revision").containsKey("default-1"));
        assertEquals(w.getInt("accepted"), w.getInt("terminal") + w.getInt("in_flight"));
    }
}
