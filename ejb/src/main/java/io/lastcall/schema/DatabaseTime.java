package io.lastcall.schema;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;

/**
 * The ledger database's clock (its {@code CURRENT_TIMESTAMP}), in epoch ms: the one clock every
 * server sees alike, for what servers judge of each other (leases).
 */
public final class DatabaseTime {

    private DatabaseTime() {
    }

    /** CURRENT_TIMESTAMP in the caller's transaction. */
    public static long millis(EntityManager em) {
        Object now = em.createNativeQuery("SELECT CURRENT_TIMESTAMP").getSingleResult();
        if (now instanceof java.util.Date date) {
            return date.getTime();
        }
        if (now instanceof java.time.OffsetDateTime odt) {
            return odt.toInstant().toEpochMilli();
        }
        if (now instanceof java.time.ZonedDateTime zdt) {
            return zdt.toInstant().toEpochMilli();
        }
        if (now instanceof java.time.Instant instant) {
            return instant.toEpochMilli();
        }
        if (now instanceof java.time.LocalDateTime ldt) {
            return ldt.atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli();
        }
        throw new PersistenceException("unexpected CURRENT_TIMESTAMP type " + (now == null ? null : now.getClass()));
    }
}
