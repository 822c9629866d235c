package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Delivery;
import io.lastcall.it.Broker.QueueCounts;
import io.lastcall.it.probe.ProbeQueues;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Undeploying with messages in flight loses none: after redeploy every message is processed. */
@ExtendWith(ArquillianExtension.class)
class AdapterRedeployIT {

    private static final String DEPLOYMENT = "lastcall-redeploy";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static EnterpriseArchive deployment() {
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
    }

    @Test
    void undeployWithUnacknowledgedMessagesLosesNothing() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "slow-" + run + "-";
        int published = 12;
        deployer.deploy(DEPLOYMENT);
        Await.until("slow consumer connected", WAIT, () -> Broker.counts(ProbeQueues.SLOW), c -> c.consumers() == 1);
        IntStream.range(0, published).forEach(i -> Broker.publish(ProbeQueues.SLOW, prefix + i, prefix + i));
        Await.until("some processed", WAIT, () -> Api.deliveries(ProbeQueues.SLOW, prefix), r -> r.size() >= 3);

        deployer.undeploy(DEPLOYMENT);

        QueueCounts afterUndeploy = Await.until("consumer gone", WAIT, () -> Broker.counts(ProbeQueues.SLOW),
                c -> c.consumers() == 0 && c.unacked() == 0);
        assertTrue(afterUndeploy.ready() > 0, "messages were still queued or in flight: " + afterUndeploy);

        deployer.deploy(DEPLOYMENT);
        try {
            List<Delivery> rows = Await.until("every message processed", WAIT,
                    () -> Api.deliveries(ProbeQueues.SLOW, prefix), r -> distinctBodies(r).size() == published);
            assertEquals(IntStream.range(0, published).mapToObj(i -> prefix + i).collect(Collectors.toSet()),
                    distinctBodies(rows));
            assertTrue(rows.stream().anyMatch(Delivery::redelivered),
                    "a message that was unacknowledged at undeploy came back redelivered: " + rows);
            rows.stream().collect(Collectors.groupingBy(Delivery::body)).forEach((body, copies) ->
                    assertTrue(copies.size() == 1 || copies.stream().skip(0).anyMatch(Delivery::redelivered),
                            "a repeated row is a redelivery: " + copies));
            Await.until("queue drained and acked", WAIT, () -> Broker.counts(ProbeQueues.SLOW),
                    c -> c.ready() == 0 && c.unacked() == 0);
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }
    }

    private static Set<String> distinctBodies(List<Delivery> rows) {
        return rows.stream().map(Delivery::body).collect(Collectors.toSet());
    }
}
