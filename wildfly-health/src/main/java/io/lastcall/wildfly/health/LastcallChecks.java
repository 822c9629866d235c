package io.lastcall.wildfly.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.lang.management.ManagementFactory;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * lastcall's checks under the names they have on Payara: ready when the database answers, the
 * broker's consumers are connected and the clock admits jobs; live while the adapter has
 * activations. Each reads one attribute of {@code io.lastcall:type=Health}; without it (lastcall
 * not deployed, or still starting) the check is down with that cause and nothing more, as these
 * endpoints answer anyone.
 */
@ApplicationScoped
public class LastcallChecks {

    private static final ObjectName HEALTH = name("io.lastcall:type=Health");

    @Produces
    @Readiness
    HealthCheck database() {
        return () -> check("database", "DatabaseUp");
    }

    @Produces
    @Readiness
    HealthCheck broker() {
        return () -> check("broker", "BrokerUp");
    }

    @Produces
    @Readiness
    HealthCheck clock() {
        return () -> check("clock", "ClockAdmitting");
    }

    @Produces
    @Liveness
    HealthCheck adapter() {
        return () -> {
            try {
                int activations = (Integer) ManagementFactory.getPlatformMBeanServer().getAttribute(HEALTH,
                        "AdapterActivations");
                return HealthCheckResponse.named("adapter").status(activations > 0)
                        .withData("activations", activations).build();
            } catch (JMException e) {
                return down("adapter", e);
            }
        };
    }

    private static HealthCheckResponse check(String check, String attribute) {
        try {
            boolean up = (Boolean) ManagementFactory.getPlatformMBeanServer().getAttribute(HEALTH, attribute);
            return HealthCheckResponse.named(check).status(up).build();
        } catch (JMException e) {
            return down(check, e);
        }
    }

    private static HealthCheckResponse down(String check, JMException e) {
        return HealthCheckResponse.named(check).down()
                .withData("cause", e instanceof InstanceNotFoundException ? "lastcall is not deployed"
                        : "lastcall's health could not be read").build();
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }
}
