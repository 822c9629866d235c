package io.lastcall.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.clock.ClockHealth;
import java.util.List;
import org.junit.jupiter.api.Test;

class HealthTest {

    private static final Health.Database DB_UP = new Health.Database(true, "PostgreSQL 15", null);
    private static final BrokerTopology.Readiness BROKER_UP = new BrokerTopology.Readiness(List.of(), true, true, null,
            List.of(), List.of());
    private static final Health.Clock CLOCK_UP = new Health.Clock(true,
            new ClockHealth.Reading(ClockHealth.Status.HEALTHY, "database", 3L, "skew 3 ms", 0L, 0L));

    @Test
    void upWhenEveryComponentIsUpWithNoCause() {
        Health.Snapshot all = new Health.Snapshot(DB_UP, BROKER_UP, CLOCK_UP);
        assertTrue(all.up());
        assertNull(all.cause());
    }

    @Test
    void theCauseIsTheFirstFailingComponent() {
        Health.Database dbDown = new Health.Database(false, null, "Connection refused");
        BrokerTopology.Readiness missing = new BrokerTopology.Readiness(List.of(), true, true, null,
                List.of("lastcall.work.report"), List.of());
        Health.Clock skewed = new Health.Clock(false,
                new ClockHealth.Reading(ClockHealth.Status.UNHEALTHY, "database", 4_000L, "skew 4000 ms", 0L, 0L));

        Health.Snapshot everythingDown = new Health.Snapshot(dbDown, missing, skewed);
        assertFalse(everythingDown.up());
        assertEquals("database: Connection refused", everythingDown.cause());
        assertEquals("broker: queues missing: [lastcall.work.report]",
                new Health.Snapshot(DB_UP, missing, skewed).cause());
        assertEquals("clock: not admitting jobs: skew 4000 ms", new Health.Snapshot(DB_UP, BROKER_UP, skewed).cause());
        assertFalse(new Health.Snapshot(DB_UP, BROKER_UP, skewed).up());
    }
}
