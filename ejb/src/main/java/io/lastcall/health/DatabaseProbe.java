package io.lastcall.health;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

/** Round-trips the ledger's database. */
@Stateless
public class DatabaseProbe {

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** The database server's clock (CURRENT_TIMESTAMP at the start of this short transaction), epoch ms. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long databaseTimeMillis() {
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

    /** The database product name and version, or throws. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public String check() {
        try {
            em.createQuery("select count(d) from DeliveryRecord d where d.id = -1").getSingleResult();
            java.sql.Connection connection = em.unwrap(java.sql.Connection.class);
            return connection.getMetaData().getDatabaseProductName() + " "
                    + connection.getMetaData().getDatabaseProductVersion();
        } catch (java.sql.SQLException e) {
            throw new PersistenceException(e);
        }
    }
}
