package io.lastcall.health;

import io.lastcall.broker.BrokerTopology;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health checks at the server's standard endpoint ({@code /health/ready},
 * {@code /health/live}), from the same probes as {@code /api/health}. Ready: the database
 * answers, the broker topology is declared and every consumer is connected to every queue lastcall
 * needs, and the clock admits jobs. Live: the adapter's consumers are registered (a broker or
 * database outage makes lastcall unready, never "dead": a restart would not help). These
 * endpoints answer anyone, so they say up or down and nothing more — no database product or
 * version, no broker error, no queue names; {@code /api/health} (authenticated) has the detail.
 */
@ApplicationScoped
public class ReadinessChecks {

    @Inject
    Health health;

    @Produces
    @Readiness
    HealthCheck database() {
        return () -> {
            return HealthCheckResponse.named("database").status(health.database().up()).build();
        };
    }

    @Produces
    @Readiness
    HealthCheck broker() {
        return () -> {
            BrokerTopology.Readiness readiness = health.broker();
            HealthCheckResponseBuilder check = HealthCheckResponse.named("broker").status(readiness.up())
                    .withData("consumers_connected", readiness.consumersConnected())
                    .withData("topology_declared", readiness.topologyDeclared())
                    .withData("queues_missing", !readiness.missingQueues().isEmpty());
            return check.build();
        };
    }

    @Produces
    @Readiness
    HealthCheck clock() {
        return () -> {
            Health.Clock clock = health.clock();
            return HealthCheckResponse.named("clock").status(clock.admitting())
                    .withData("status", clock.reading().status().name()).build();
        };
    }

    @Produces
    @Liveness
    HealthCheck adapter() {
        return () -> {
            int activations = health.adapterActivations();
            return HealthCheckResponse.named("adapter").status(activations > 0).withData("activations", activations)
                    .build();
        };
    }
}
