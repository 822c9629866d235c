package io.lastcall.health;

/**
 * lastcall's health checks as JMX attributes ({@code io.lastcall:type=Health}), up or down only:
 * the same facts as the MicroProfile Health checks ({@link ReadinessChecks}), readable by anything
 * in the server's JVM without lastcall's classes. WildFly's MicroProfile Health subsystem does not
 * look for checks inside an EAR, so a small web application beside it (lastcall-health.war) reads
 * these; JMX consoles and exporters can read them on either server.
 */
public interface HealthMXBean {

    /** Readiness: the ledger database answers. */
    boolean isDatabaseUp();

    /** Readiness: the topology is declared and every consumer is connected to every queue lastcall needs. */
    boolean isBrokerUp();

    /** Readiness: the clock admits jobs. */
    boolean isClockAdmitting();

    /** Liveness: how many of the adapter's activations (MDB endpoints) are registered; none is dead. */
    int getAdapterActivations();
}
