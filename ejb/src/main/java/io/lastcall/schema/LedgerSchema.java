package io.lastcall.schema;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the ledger's schema to this release's version with Flyway, at deploy, before anything
 * else reads the ledger (the reconciler depends on it; deliveries that arrive earlier are held by
 * the adapter's pauseOn). Scripts: {@code db/migration/common} and {@code db/migration/<vendor>}
 * (h2, postgresql, from the connection's product name). A database that lastcall 0.1 created (EclipseLink tables, no history table)
 * is baselined at version 1, so its rows are kept and only later versions run. EclipseLink never
 * creates or alters tables.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LedgerSchema {

    private static final Logger LOG = Logger.getLogger(LedgerSchema.class.getName());
    static final String HISTORY_TABLE = "lc_schema_history";

    @Inject
    Settings settings;

    private String dataSourceName;

    private volatile String version = "unknown";
    private volatile String vendor = "unknown";

    // Flyway commits on its own; it must not run inside a JTA transaction (set on the method:
    // a lifecycle callback does not take the class's attribute on every server)
    @PostConstruct
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void migrate() {
        dataSourceName = settings.ledgerDataSource();
        DataSource dataSource = lookup(dataSourceName);
        vendor = vendor(dataSource);
        Flyway flyway = Flyway.configure(LedgerSchema.class.getClassLoader())
                .dataSource(dataSource)
                .table(HISTORY_TABLE)
                .locations("classpath:db/migration/common", "classpath:db/migration/" + vendor)
                .baselineOnMigrate(true)
                .baselineVersion("1")
                .baselineDescription("ledger created by lastcall 0.1")
                .load();
        MigrateResult result = flyway.migrate();
        version = result.targetSchemaVersion != null ? result.targetSchemaVersion
                : String.valueOf(flyway.info().current() == null ? "none" : flyway.info().current().getVersion());
        LOG.info("Ledger schema on " + dataSourceName + " (" + result.database + "): version " + version + ", "
                + result.migrationsExecuted + " migration(s) applied now");
    }

    /** The schema version after the migration at deploy. */
    @Lock(LockType.READ)
    public String version() {
        return version;
    }

    /** The ledger's database: h2 or postgresql. */
    @Lock(LockType.READ)
    public String vendor() {
        return vendor;
    }

    /** The folder of the vendor's own scripts: h2 or postgresql. */
    private String vendor(DataSource dataSource) {
        String product;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException("the ledger database (" + dataSourceName + ") does not answer: "
                    + e.getMessage(), e);
        }
        if (product.equalsIgnoreCase("H2")) {
            return "h2";
        }
        if (product.equalsIgnoreCase("PostgreSQL")) {
            return "postgresql";
        }
        throw new IllegalStateException("the ledger database " + dataSourceName + " is " + product
                + "; lastcall supports H2 and PostgreSQL");
    }

    private static DataSource lookup(String name) {
        try {
            return (DataSource) new InitialContext().lookup(name);
        } catch (NamingException e) {
            throw new IllegalStateException("lastcall.ledger.datasource names " + name
                    + ", which is not a data source on this server: " + e.getMessage(), e);
        }
    }
}
