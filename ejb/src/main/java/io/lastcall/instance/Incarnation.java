package io.lastcall.instance;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Who this server is ({@code lastcall.instance.id}) and which boot of it this is (a new id at
 * every start). Every attempt records both, so after a restart the server can tell the handoffs
 * its previous incarnation left behind: they can no longer receive a result. The boot also holds
 * a lease in the ledger, renewed every quarter of {@code lastcall.instance.lease-ms}, so that the
 * other servers can tell when it is gone. The first renewal happens before anything can claim:
 * the workers reach this bean first, and a singleton answers only once it is constructed.
 */
@Singleton
@Startup
@DependsOn("LedgerSchema")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Incarnation {

    private static final Logger LOG = Logger.getLogger(Incarnation.class.getName());

    @Inject
    Settings settings;


    @EJB
    LeaseLedger leases;

    @Resource
    TimerService timers;

    private String instanceId;
    private final String bootId = UUID.randomUUID().toString();
    private final long bootedAt = System.currentTimeMillis();
    private volatile long renewedAt;
    private volatile String renewalError;
    private volatile List<String> duplicates = List.of();

    @PostConstruct
    void init() {
        instanceId = settings.instance().id();
        renew();
        long every = Math.max(250, settings.instance().leaseMs() / 4);
        timers.createIntervalTimer(every, every, new TimerConfig("lastcall lease " + bootId, false));
    }

    @Timeout
    void renew() {
        try {
            LeaseLedger.Renewal renewal = leases.renew(bootId, instanceId, settings.instance().leaseMs());
            if (renewalError != null) {
                LOG.info("Lease of boot " + bootId + " (instance " + instanceId + ") renewed again");
            }
            if (!renewal.otherLiveBoots().isEmpty() && !renewal.otherLiveBoots().equals(duplicates)) {
                LOG.severe("Instance id " + instanceId + " is used by another live server boot too ("
                        + renewal.otherLiveBoots() + "): give each server its own lastcall.instance.id. Neither"
                        + " closes the other's attempts; health is DOWN until one of them stops.");
            }
            duplicates = renewal.otherLiveBoots();
            renewedAt = renewal.at();
            renewalError = null;
        } catch (RuntimeException e) {
            // the database is away: the lease may lapse, and then other servers close this boot's
            // open attempts; its handoffs stay guarded by the ledger's row locks all the same
            if (renewalError == null) {
                LOG.log(Level.WARNING, "Could not renew the lease of boot " + bootId + " (instance " + instanceId
                        + "); other servers close its open attempts once it lapses: " + e);
            }
            renewalError = String.valueOf(e.getMessage());
        }
    }

    public String instanceId() {
        return instanceId;
    }

    /** The instance and boot ids together: fixed for this boot, so a caller may keep them. */
    public Identity identity() {
        return new Identity(instanceId, bootId);
    }

    public record Identity(String instanceId, String bootId) {
    }

    public String bootId() {
        return bootId;
    }

    public long bootedAt() {
        return bootedAt;
    }

    /** When this boot's lease was last renewed (epoch ms; 0 never), and why the last try failed. */
    public long renewedAt() {
        return renewedAt;
    }

    public String renewalError() {
        return renewalError;
    }

    /** Other live boots that use this instance id (a misconfiguration): empty when all is well. */
    public List<String> duplicates() {
        return duplicates;
    }
}
