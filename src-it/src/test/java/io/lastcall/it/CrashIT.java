package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server process is killed (SIGKILL) after HANDED_OFF was committed and while the model call
 * is in flight; after a restart the redelivered message causes no second request, and the
 * reconciler marks the job OUTCOME_UNKNOWN with its exposure still reserved.
 */
@ExtendWith(ArquillianExtension.class)
class CrashIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
    }

    @Test
    void crashAfterHandoffLeavesTheOutcomeUnknownAndNeverResends() throws Exception {
        DispatchSpy spy = DispatchSpy.get();
        String id = Jobs.newId("crash");
        // workload it-crash: the call may take 10 s; the spy would answer after 60 s; the job lives
        // long enough that its unacknowledged message returns to a worker after the restart
        Jobs.submit(Jobs.envelope(id, Jobs.now() + 120_000, "spy-delay-60000").add("workload", "it-crash"));
        Await.until("the request reached the model", WAIT, () -> spy.requestsFor(id), r -> r.size() == 1);
        assertEquals("HANDED_OFF", Jobs.get(id).getString("state"));

        killServer();
        restartServer();

        Await.until("the application is back", WAIT, () -> Api.get("/api/health").status(), s -> s == 200);
        Await.until("the unacknowledged message redelivered and recorded", WAIT,
                () -> Api.deliveries("it.lastcall.work.it-crash").stream()
                        .filter(d -> d.messageId().equals("ID:" + id) && d.redelivered()).count(), n -> n >= 1);
        JsonObject job = Await.until("the reconciler's verdict", WAIT, () -> {
            Jobs.reconcile();
            return Jobs.get(id);
        }, j -> !j.isNull("outcome"));
        assertEquals("OUTCOME_UNKNOWN", job.getString("outcome"), job.toString());
        assertEquals("RECONCILED", job.getString("reason"));
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals(1, job.getJsonArray("attempts").size());
        assertEquals("UNKNOWN", attempt.getString("state"));
        assertEquals(attempt.getJsonNumber("estimate").bigDecimalValue(), attempt.getJsonNumber("reserved")
                .bigDecimalValue(), "the exposure stays reserved");
        assertEquals(1, spy.requestsFor(id).size(), "no second request after the restart");
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
    }

    private static Path domainDir() {
        return Path.of(System.getProperty("lastcall.it.runtime"), "domains", "lastcall-it");
    }

    private static void killServer() throws IOException, InterruptedException {
        String pid = Files.readString(domainDir().resolve("config/pid"), StandardCharsets.UTF_8).trim();
        Process kill = new ProcessBuilder("kill", "-9", pid).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -9 " + pid);
        Await.until("the server process gone", Duration.ofSeconds(30),
                () -> ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false), alive -> !alive);
    }

    /** The same script and settings the build used, without emptying the ledgers. */
    private static void restartServer() throws IOException, InterruptedException {
        ProcessBuilder start = new ProcessBuilder("bash", System.getProperty("lastcall.it.payara-script"), "start");
        start.environment().put("LC_RUNTIME", System.getProperty("lastcall.it.runtime"));
        start.environment().put("LC_DOMAIN", "lastcall-it");
        start.environment().put("LC_PORTBASE", System.getProperty("lastcall.it.portbase"));
        start.environment().put("LC_ENV_FILE", System.getProperty("lastcall.it.env-file"));
        start.environment().put("LC_DB", "h2");
        start.environment().put("LC_RESET_DATABASES", "false");
        Process process = start.inheritIO().start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "restart within 3 minutes");
        assertEquals(0, process.exitValue(), "restart: " + List.of(start.command()));
    }
}
