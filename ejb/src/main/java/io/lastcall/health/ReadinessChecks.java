package io.lastcall.health;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.clock.ClockHealth;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.List;
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
            List<ConsumerStatus.Activation> activations = ConsumerStatus.activations();
            boolean connected = !activations.isEmpty() && activations.stream().allMatch(ConsumerStatus.Activation::connected);
            List<String> missing = topology.missingNeededQueues();
            List<String> unconsumed = topology.unconsumedWorkQueues();
            HealthCheckResponseBuilder check = HealthCheckResponse.named("broker")
                    .status(connected && topology.declared() && missing.isEmpty() && unconsumed.isEmpty())
                    .withData("consumers_connected", connected).withData("topology_declared", topology.declared());
            if (!topology.declared()) {
                check.withData("topology_error", topology.lastProblem());
            }
            if (!missing.isEmpty()) {
                check.withData("missing_queues", String.join(",", missing));
            }
            if (!unconsumed.isEmpty()) {
                check.withData("unconsumed_work_queues", String.join(",", unconsumed));
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
        return () -> HealthCheckResponse.named("adapter").status(!ConsumerStatus.activations().isEmpty())
                .withData("activations", ConsumerStatus.activations().size()).build();
    }
}
