package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
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

        Server.kill();
        Server.restart();
        // closed by the restarted server at its startup, without waiting for a reconciler pass
        JsonObject job = Await.until("the verdict of the restarted server", Duration.ofSeconds(10),
                () -> Jobs.get(id), j -> !j.isNull("outcome"));
        Await.until("the unacknowledged message redelivered and recorded", WAIT,
                () -> Api.deliveries("it.lastcall.work.it-crash").stream()
                        .filter(d -> d.messageId().equals("ID:" + id) && d.redelivered()).count(), n -> n >= 1);
        assertEquals("OUTCOME_UNKNOWN", job.getString("outcome"), job.toString());
        assertEquals("SERVER_RESTARTED", job.getString("reason"), "closed at startup, not a reconciler period later");
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals(1, job.getJsonArray("attempts").size());
        assertEquals("UNKNOWN", attempt.getString("state"));
        assertEquals(attempt.getJsonNumber("estimate").bigDecimalValue(), attempt.getJsonNumber("reserved")
                .bigDecimalValue(), "the exposure stays reserved");
        assertEquals(1, spy.requestsFor(id).size(), "no second request after the restart");
        assertTrue(Jobs.reconcile().getBoolean("invariant_holds"));
    }
}
