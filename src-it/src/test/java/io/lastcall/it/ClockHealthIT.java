package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lastcall.it.Api.Reply;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A clock whose health cannot be read stops admission: nothing is persisted, published or called. */
@ExtendWith(ArquillianExtension.class)
class ClockHealthIT {

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        // a reference clock that cannot be read: nothing listens on port 9 here
        return Deployments.lastcallWithProbes(Map.of("lastcall.clock.reference", "http://127.0.0.1:9/"));
    }

    @Test
    void unknownClockHealthRefusesAdmission() {
        String id = Jobs.newId("clock");

        Reply reply = Jobs.submit(Jobs.envelope(id, Jobs.now() + 30_000, "spy-ok"));

        assertEquals(503, reply.status(), reply.json().toString());
        assertEquals("CLOCK_UNHEALTHY", reply.json().asJsonObject().getString("reason"));
        Reply health = Api.get("/api/health");
        assertEquals(503, health.status());
        JsonObject clock = health.json().asJsonObject().getJsonObject("clock");
        assertEquals("UNKNOWN", clock.getString("status"), clock.toString());
        assertFalse(clock.getBoolean("admitting"));
        Await.sleep(1_000);
        assertNull(Jobs.get(id), "nothing persisted");
        assertEquals(List.of(), DispatchSpy.get().requestsFor(id), "nothing called");
        assertFalse(Api.deliveries(ItConfig.workerQueue()).stream().anyMatch(d -> d.messageId().equals("ID:" + id)),
                "nothing published");
    }
}
