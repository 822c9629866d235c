package io.lastcall.health;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** Registers {@link HealthMXBean} as {@code io.lastcall:type=Health} while lastcall is deployed. */
@Startup
@Singleton
public class HealthBeanRegistration {

    /** The name the WildFly health application and JMX tools read. */
    public static final String NAME = "io.lastcall:type=Health";

    private static final Logger LOG = Logger.getLogger(HealthBeanRegistration.class.getName());

    @Inject
    Health health;

    @PostConstruct
    void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName name = new ObjectName(NAME);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name); // left by an earlier deployment that did not stop cleanly
            }
            server.registerMBean(new Attributes(health), name);
        } catch (JMException e) {
            LOG.log(Level.WARNING, "could not register " + NAME + " (health over JMX, and on WildFly over"
                    + " MicroProfile Health, will say lastcall is not deployed)", e);
        }
    }

    @PreDestroy
    void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(NAME));
        } catch (JMException alreadyGone) {
            LOG.log(Level.FINE, "{0} was not registered", NAME);
        }
    }

    private record Attributes(Health health) implements HealthMXBean {

        @Override
        public boolean isDatabaseUp() {
            return health.database().up();
        }

        @Override
        public boolean isBrokerUp() {
            return health.broker().up();
        }

        @Override
        public boolean isClockAdmitting() {
            return health.clock().admitting();
        }

        @Override
        public int getAdapterActivations() {
            return health.adapterActivations();
        }
    }
}
