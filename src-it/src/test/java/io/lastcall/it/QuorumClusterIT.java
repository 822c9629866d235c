package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The scale-out build's two servers on a three-node RabbitMQ cluster with quorum queues
 * (src-it-scale/scale-domain.env: lastcall.broker.addresses lists the three nodes,
 * queue-type=quorum). During a burst that leaves a backlog on the work queue, the node leading
 * that queue is stopped: a new leader is elected, the servers' connections to the stopped node
 * fail over to the others, and every job still ends exactly once, none sent twice or late —
 * queued jobs whose deadline passed in the broker are dead-lettered at least once and end
 * EXPIRED_NOT_STARTED. The node is started again in a finally.
 */
@EnabledIfSystemProperty(named = "lastcall.it.cluster", matches = "true")
class QuorumClusterIT {

    private static final String QUEUE = "scale.lastcall.work.incident-summary";
    private static final int JOBS = 300;
    private static final Duration WAIT = Duration.ofMinutes(4);

    private final String a = ItConfig.baseUrl();
    private final String b = System.getProperty("lastcall.it.base-url-b");

    @Test
    void stoppingTheLeaderOfTheWorkQueueDuringABurstLosesNothing() {
        DispatchSpy spy = DispatchSpy.get();
        Await.until("both servers healthy", WAIT, () -> ScaleOutIT.health(a) + ScaleOutIT.health(b), s -> s == 400);
        int leader = Cluster.leader(QUEUE);

        Random random = new Random(7);
        Map<String, Long> deadlines = new TreeMap<>();
        for (int i = 0; i < JOBS; i++) {
            String id = Jobs.newId("quorum");
            // 16 permits, 1 s a call: a backlog of about 20 s, in which the later ones of a quarter
            // of the jobs (2-6 s to start) expire in the queue and are dead-lettered
            long expiresAt = Jobs.now() + (i % 4 == 0 ? 2_000 + random.nextInt(4_000) : 150_000);
            assertEquals(201, ScaleOutIT.submit(i % 2 == 0 ? a : b,
                    Jobs.envelope(id, expiresAt, "spy-delay-1000").build().toString()), id);
            deadlines.put(id, expiresAt);
        }
        Await.until("the burst is being worked off", WAIT, () -> deadlines.keySet().stream()
                .mapToInt(id -> spy.requestsFor(id).size()).sum(), n -> n >= 40);

        Map<String, JsonObject> ended;
        try {
            Cluster.stopNode(leader);
            int next = Await.until("a new leader of " + QUEUE, Duration.ofSeconds(60), () -> leaderOrZero(),
                    n -> n != 0 && n != leader);
            assertNotEquals(leader, next);
            ended = EndedJobs.await(deadlines.keySet(), a, WAIT);
            Await.until("both servers healthy without node " + leader, WAIT,
                    () -> ScaleOutIT.health(a) + ScaleOutIT.health(b), s -> s == 400);
        } finally {
            Cluster.startNode(leader);
        }
        Await.sleep(1_000);

        Map<String, Long> outcomes = EndedJobs.check(ended, deadlines, spy);
        System.out.println("quorum cluster: node " + leader + " (leader of " + QUEUE + ") stopped: " + outcomes);
        assertTrue(outcomes.getOrDefault("COMPLETED/ON_TIME", 0L) > JOBS / 2, outcomes.toString());
        // dead-lettered at least once by the quorum queue, recorded by the dead-letter consumer
        assertTrue(outcomes.getOrDefault("EXPIRED_NOT_STARTED/IN_BROKER", 0L) > 0, outcomes.toString());
        EndedJobs.assertInvariant(a);
        EndedJobs.assertInvariant(b);
    }

    private static int leaderOrZero() {
        try {
            return Cluster.leader(QUEUE);
        } catch (AssertionError | RuntimeException noLeaderYet) {
            return 0;
        }
    }
}
