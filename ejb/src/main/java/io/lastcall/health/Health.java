package io.lastcall.health;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.broker.ConsumerStatus;
import io.lastcall.clock.ClockHealth;
import io.lastcall.schema.DatabaseProbe;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * lastcall's health, computed in this one place and shown by both {@code /api/health} (all of
 * it, authenticated) and MicroProfile Health's checks (up or down only, {@link ReadinessChecks}).
 */
@ApplicationScoped
public class Health {

    /** Whether the ledger database answers: its product and version, or the error. */
    public record Database(boolean up, String product, String error) {
    }

    /** Whether the clock admits jobs, and the reading that decided it. */
    public record Clock(boolean admitting, ClockHealth.Reading reading) {
    }

    /** Every component at one moment. */
    public record Snapshot(Database database, BrokerTopology.Readiness broker, Clock clock) {

        public boolean up() {
            return database.up() && broker.up() && clock.admitting();
        }

        /** The first failing component and why, in one line: what "./lastcall up" prints while it waits; null when up. */
        public String cause() {
            if (!database.up()) {
                return "database: " + database.error();
            }
            if (!broker.topologyDeclared()) {
                return "broker: topology not declared: " + broker.topologyError();
            }
            if (!broker.missingQueues().isEmpty()) {
                return "broker: queues missing: " + broker.missingQueues();
            }
            if (!broker.consumersConnected()) {
                return "broker: consumers not connected" + broker.activations().stream()
                        .filter(a -> a.lastError() != null).map(a -> " (" + a.queue() + ": " + a.lastError() + ")")
                        .findFirst().orElse("");
            }
            if (!broker.unconsumedWorkQueues().isEmpty()) {
                return "broker: work queues without a consumer: " + broker.unconsumedWorkQueues();
            }
            if (!clock.admitting()) {
                return "clock: not admitting jobs: " + clock.reading().detail();
            }
            return null;
        }
    }

    @EJB
    DatabaseProbe databaseProbe;

    @EJB
    BrokerTopology topology;

    @Inject
    ClockHealth clockHealth;

    public Database database() {
        try {
            return new Database(true, databaseProbe.check(), null);
        } catch (RuntimeException e) {
            return new Database(false, null, String.valueOf(e.getMessage()));
        }
    }

    public BrokerTopology.Readiness broker() {
        return topology.readiness();
    }

    public Clock clock() {
        ClockHealth.Reading reading = clockHealth.current();
        return new Clock(clockHealth.admits(), reading);
    }

    /** How many of the adapter's activations (MDB endpoints) are registered: liveness, none is dead. */
    public int adapterActivations() {
        return ConsumerStatus.activations().size();
    }

    public Snapshot now() {
        return new Snapshot(database(), broker(), clock());
    }
}
