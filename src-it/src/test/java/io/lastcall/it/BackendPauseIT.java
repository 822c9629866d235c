package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A 429 pauses the backend, not just the job: nginx (14898, workload it-paced) answers every
 * request with {@code 429} and {@code Retry-After: 5} for 20 s, as a provider's rate limiter does.
 * From nginx's own access log: after each 429, no request arrives until its 5 s are over (but for
 * the ones already handed off while lastcall was recording the pause: the grace below). The jobs
 * whose deadlines reach past the storm then complete with one 200 each; those whose deadline falls
 * inside the pause end EXPIRED_NOT_STARTED/BACKEND_PAUSED, never sent again.
 */
@ExtendWith(ArquillianExtension.class)
class BackendPauseIT extends SpyBackedDeployment {

    private static final long PAUSE_MS = 5_000;
    /** Between nginx answering a 429 and lastcall's settlement committing the pause, a request already past its last check may still arrive. */
    private static final long RECORDING_GRACE_MS = 300;

    private record Logged(long atMs, int status, String jobId) {
    }

    @Test
    void noRequestDuringAnAnnouncedPauseAndTheJobsThatCanWaitComplete() throws IOException {
        Files.deleteIfExists(Gateway.paced());
        long logFrom = Files.exists(Gateway.pacedLog()) ? Files.readAllLines(Gateway.pacedLog()).size() : 0;
        long countedBefore = tooManyRequests();
        Files.createFile(Gateway.paced());
        long stormEnds = System.currentTimeMillis() + 20_000;
        List<String> patient = new ArrayList<>();
        List<String> hurried = new ArrayList<>();
        try {
            // the short ones first: received at once, not left in the queue behind consumers that wait out a pause
            for (int i = 0; i < 2; i++) {
                String id = Jobs.newId("paced-short");
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 3_000, "spy-ok").add("workload", "it-paced"));
                hurried.add(id);
            }
            for (int i = 0; i < 8; i++) {
                String id = Jobs.newId("paced");
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok").add("workload", "it-paced"));
                patient.add(id);
            }
            Await.sleep(Math.max(0, stormEnds - System.currentTimeMillis()));
        } finally {
            Files.deleteIfExists(Gateway.paced());
        }
        for (String id : patient) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(60));
            assertEquals("COMPLETED", job.getString("state"), job.toString());
            assertEquals(1, spy.requestsFor(id).size(), "one request reached the model behind nginx: " + id);
        }
        for (String id : hurried) {
            JsonObject job = Jobs.awaitOutcome(id, Duration.ofSeconds(30));
            assertEquals("EXPIRED_NOT_STARTED", job.getString("state"), job.toString());
            assertEquals("BACKEND_PAUSED", job.getString("reason"), job.toString());
            assertEquals(0, spy.requestsFor(id).size(), id);
        }

        List<Logged> log = Files.readAllLines(Gateway.pacedLog()).stream().skip(logFrom).map(BackendPauseIT::parse)
                .toList();
        List<Logged> refused = log.stream().filter(l -> l.status() == 429).toList();
        assertTrue(refused.size() >= 2, "nginx answered 429 through the storm: " + log);
        List<String> duringAPause = new ArrayList<>();
        int inGrace = 0;
        for (Logged r : log) {
            for (Logged pause : refused) {
                long after = r.atMs() - pause.atMs();
                if (after > 0 && after < PAUSE_MS) {
                    if (after < RECORDING_GRACE_MS) {
                        inGrace++;
                    } else {
                        duringAPause.add(r + " " + after + " ms after the 429 of " + pause);
                    }
                }
            }
        }
        System.out.println("BackendPauseIT: " + log.size() + " requests, " + refused.size() + " answered 429, "
                + inGrace + " within " + RECORDING_GRACE_MS + " ms of a 429 (handed off before the pause was recorded)");
        assertEquals(List.of(), duringAPause, "no request during an announced pause");
        assertEquals(refused.size(), tooManyRequests() - countedBefore,
                "the server counted each 429 nginx answered (/api/stats, backends)");
    }

    /** The 429s this server counted from it-paced's backend. */
    private static long tooManyRequests() {
        return Api.get("/api/stats").json().asJsonObject().getJsonArray("backends").getValuesAs(JsonObject.class)
                .stream().filter(b -> b.getString("backend").equals("http://127.0.0.1:14898/v1")).findFirst()
                .orElseThrow().getJsonNumber("too_many_requests").longValue();
    }

    private static Logged parse(String line) {
        String[] f = line.trim().split(" ");
        return new Logged(Math.round(Double.parseDouble(f[0]) * 1000), Integer.parseInt(f[1]), f.length > 2 ? f[2] : "");
    }
}
