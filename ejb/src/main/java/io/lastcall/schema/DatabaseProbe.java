package io.lastcall.schema;

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
        return DatabaseTime.millis(em);
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
