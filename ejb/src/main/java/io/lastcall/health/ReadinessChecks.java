package io.lastcall.health;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.clock.ClockHealth;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
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
 * database outage makes lastcall unready, never "dead": a restart would not help).
 */
@ApplicationScoped
public class ReadinessChecks {

    @EJB
    DatabaseProbe database;

    @EJB
    BrokerTopology topology;

    @EJB
    ClockHealth clock;

    @Produces
    @Readiness
    HealthCheck database() {
        return () -> {
            HealthCheckResponseBuilder check = HealthCheckResponse.named("database");
            try {
                return check.up().withData("product", database.check()).build();
            } catch (RuntimeException e) {
                return check.down().withData("error", String.valueOf(e.getMessage())).build();
            }
        };
    }

    @Produces
    @Readiness
    HealthCheck broker() {
        return () -> {
            BrokerTopology.Readiness readiness = topology.readiness();
            HealthCheckResponseBuilder check = HealthCheckResponse.named("broker").status(readiness.up())
                    .withData("consumers_connected", readiness.consumersConnected())
                    .withData("topology_declared", readiness.topologyDeclared());
            if (readiness.topologyError() != null) {
                check.withData("topology_error", readiness.topologyError());
            }
            if (!readiness.missingQueues().isEmpty()) {
                check.withData("missing_queues", String.join(",", readiness.missingQueues()));
            }
            if (!readiness.unconsumedWorkQueues().isEmpty()) {
                check.withData("unconsumed_work_queues", String.join(",", readiness.unconsumedWorkQueues()));
            }
            return check.build();
        };
    }

    @Produces
    @Readiness
    HealthCheck clock() {
        return () -> {
            ClockHealth.Reading reading = clock.current();
            return HealthCheckResponse.named("clock").status(clock.admits())
                    .withData("status", reading.status().name()).withData("detail", reading.detail()).build();
        };
    }

    @Produces
    @Liveness
    HealthCheck adapter() {
        return () -> {
            int activations = ConsumerStatus.activations().size();
            return HealthCheckResponse.named("adapter").status(activations > 0).withData("activations", activations)
                    .build();
        };
    }
}
