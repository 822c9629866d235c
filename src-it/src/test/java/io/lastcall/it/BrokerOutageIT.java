package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.lastcall.it.Api.Reply;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The broker goes away and comes back: health says so, consumers reconnect, delivery resumes. */
@ExtendWith(ArquillianExtension.class)
class BrokerOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
    }

    @Test
    void consumersReconnectAfterTheBrokerRestarts() {
        Await.until("healthy", WAIT, () -> Api.get("/api/health"), r -> r.status() == 200);
        Reply ready = Await.until("ready (MicroProfile Health)", WAIT, () -> Api.healthGet("/health/ready"),
                r -> r.status() == 200);
        for (String check : new String[] {"database", "broker", "clock"}) {
            assertEquals("UP", Api.check(ready, check), ready.json().toString());
        }
        String open = ready.json().toString();
        assertFalse(open.contains("product") || open.contains("PostgreSQL") || open.contains("H2 "),
                "an unauthenticated health check names no database product: " + open);
        Reply live = Api.healthGet("/health/live");
        assertEquals(200, live.status(), live.json().toString());
        assertEquals("UP", Api.check(live, "adapter"), live.json().toString());

        Broker.rabbitmqctl("stop_app");
        try {
            Reply down = Await.until("health reports the broker lost", WAIT, () -> Api.get("/api/health"),
                    r -> r.status() == 503);
            JsonObject broker = down.json().asJsonObject().getJsonObject("broker");
            assertFalse(broker.getBoolean("connected"), broker.toString());
            assertEquals("DOWN", broker.getString("status"));
            Reply unready = Await.until("not ready (MicroProfile Health)", WAIT,
                    () -> Api.healthGet("/health/ready"), r -> r.status() == 503);
            assertEquals("DOWN", Api.check(unready, "broker"), unready.json().toString());
            assertEquals("UP", Api.check(unready, "database"));
            assertEquals(200, Api.healthGet("/health/live").status(), "a broker outage is not a reason to restart");
        } finally {
            Broker.rabbitmqctl("start_app");
        }

        Await.until("health reports consumers back", WAIT, () -> Api.get("/api/health"), r -> r.status() == 200);
        Await.until("ready again", WAIT, () -> Api.healthGet("/health/ready").status(), s -> s == 200);
        String body = "after-outage-" + UUID.randomUUID();
        Broker.publish(ItConfig.workerQueue(), body, body);
        Await.until("the delivery row", WAIT, () -> Api.deliveries(ItConfig.workerQueue(), body), r -> r.size() == 1);
        Await.until("queue drained and acked", WAIT, () -> Broker.counts(ItConfig.workerQueue()),
                c -> c.ready() == 0 && c.unacked() == 0);
    }
}
