package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WildFly with a 3 s transaction timeout (its default is 300 s): jobs that wait for a dispatch
 * permit longer than that are still dispatched, and the permits come back. A permit wait inside a
 * container transaction would be rolled back by the transaction reaper after the permit was
 * granted, and that permit never released: after as many such waits as there are permits (2 in
 * the test domain) nothing would be dispatched again.
 */
@ExtendWith(ArquillianExtension.class)
class TransactionTimeoutIT extends SpyBackedDeployment {

    @Test
    void permitWaitsLongerThanTheTransactionTimeoutLeakNoPermit() {
        Assumptions.assumeTrue(Server.wildfly(), "WildFly's transactions subsystem");
        Server.jbossCli(false, "/subsystem=transactions:write-attribute(name=default-timeout,value=3)");
        try {
            List<String> slow = new ArrayList<>();
            for (int i = 0; i < 2; i++) { // both permits, for 7 s
                String id = Jobs.newId("tx-slow");
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 90_000, "spy-delay-7000"));
                slow.add(id);
            }
            Await.sleep(500);
            List<String> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) { // each waits about 7 s for a permit
                String id = Jobs.newId("tx-wait");
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 90_000, "spy-ok"));
                waiting.add(id);
            }
            for (String id : slow) {
                assertCompletedOnce(id, Duration.ofSeconds(40));
            }
            for (String id : waiting) {
                assertCompletedOnce(id, Duration.ofSeconds(40));
            }
            for (int i = 0; i < 4; i++) { // the permits are back
                String id = Jobs.newId("tx-after");
                Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok"));
                assertCompletedOnce(id, Duration.ofSeconds(20));
            }
        } finally {
            Server.jbossCli(false, "/subsystem=transactions:undefine-attribute(name=default-timeout)");
        }
    }

    private void assertCompletedOnce(String id, Duration within) {
        JsonObject job = Jobs.awaitOutcome(id, within);
        assertEquals("COMPLETED", job.getString("outcome"), job.toString());
        assertEquals(1, spy.requestsFor(id).size(), id);
    }
}
