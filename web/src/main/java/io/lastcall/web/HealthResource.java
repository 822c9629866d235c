package io.lastcall.web;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.clock.ClockHealth;
import io.lastcall.dispatch.BackendWaits;
import io.lastcall.dispatch.DispatchPermits;
import io.lastcall.health.Health;
import io.lastcall.instance.Incarnation;
import io.lastcall.broker.ConsumerStatus;
import io.lastcall.instance.LeaseLedger;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /api/health}: 200 when the database answers, the topology is declared, every
 * RabbitMQ consumer of every activation is connected and the clock admits jobs; 503 otherwise,
 * with the reasons. Also reports dispatch permits in use, jobs waiting locally for one, and jobs
 * waiting locally for a paused or rate-limited backend.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("health")
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {

    @Inject
    Health health;

    @Inject
    DispatchPermits permits;

    @Inject
    BackendWaits backendWaits;

    @EJB
    Incarnation incarnation;

    @EJB
    LeaseLedger leases;

    @Inject
    Settings settings;

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR, Roles.SUBMITTER})
    public Response health() {
        Health.Snapshot now = health.now();
        // two live servers with one instance id: each would take the other's handoffs for its own
        boolean shared = !incarnation.duplicates().isEmpty();
        boolean up = now.up() && !shared;
        String cause = !now.up() ? now.cause() : shared ? "instance: id " + incarnation.instanceId()
                + " is also used by live boot(s) " + incarnation.duplicates()
                + "; give each server its own lastcall.instance.id" : null;
        Health.Database db = now.database();
        BrokerTopology.Readiness broker = now.broker();
        ClockHealth.Reading reading = now.clock().reading();
        HealthView body = new HealthView(up ? "UP" : "DOWN", cause,
                new DatabaseView(db.up() ? "UP" : "DOWN", db.product(), db.error()),
                new BrokerView(broker.up() ? "UP" : "DOWN", broker.consumersConnected(), broker.topologyDeclared(),
                        broker.topologyError(), orNull(broker.missingQueues()), orNull(broker.unconsumedWorkQueues()),
                        broker.activations().stream().map(ConsumerView::of).toList()),
                new ClockView(reading.status().name(), reading.reference(), reading.skewMs(), reading.detail(),
                        now.clock().admitting()),
                new DispatchView(permits.size(), permits.inUse(), permits.waiting(), backendWaits.waiting()), instance());
        return Response.status(up ? 200 : 503).entity(body).build();
    }

    /** The health body; a field without a value is left out. */
    public record HealthView(String status, String cause, DatabaseView database, BrokerView broker, ClockView clock,
            DispatchView dispatch, InstanceView instance) {
    }

    public record DatabaseView(String status, String product, String error) {
    }

    public record BrokerView(String status, boolean connected,
            @JsonbProperty("topology_declared") boolean topologyDeclared,
            @JsonbProperty("topology_error") String topologyError,
            @JsonbProperty("missing_queues") List<String> missingQueues,
            @JsonbProperty("unconsumed_work_queues") List<String> unconsumedWorkQueues, List<ConsumerView> consumers) {
    }

    /** One activation's consumers, as the adapter reports them. */
    @JsonbNillable
    public record ConsumerView(String queue, String broker, boolean connected,
            @JsonbNillable @JsonbProperty("consumers_connected") int consumersConnected,
            @JsonbNillable @JsonbProperty("consumers_configured") int consumersConfigured, int prefetch,
            @JsonbProperty("order_by") String orderBy, @JsonbProperty("share_by") String shareBy, int held, long delivered, long acknowledged, long requeued, long rejected, long paused,
            @JsonbNillable @JsonbProperty("missing_queues") List<String> missingQueues,
            @JsonbNillable @JsonbProperty("last_error") String lastError) {

        static ConsumerView of(ConsumerStatus.Activation a) {
            return new ConsumerView(a.queue(), a.broker(), a.connected(), a.consumersConnected(),
                    a.consumersConfigured(), a.prefetch(), a.orderBy(), a.shareBy(), a.held(), a.delivered(), a.acknowledged(), a.requeued(), a.rejected(),
                    a.paused(), a.missingQueues(), a.lastError());
        }
    }

    public record ClockView(String status, String reference, @JsonbProperty("skew_ms") Long skewMs, String detail,
            boolean admitting) {
    }

    public record DispatchView(int permits, @JsonbProperty("in_use") int inUse, int waiting,
            @JsonbProperty("waiting_for_backend") int waitingForBackend) {
    }

    /** This server boot, its lease, and every boot whose lease holds (the servers sharing the ledger). */
    public record InstanceView(String id, @JsonbProperty("boot_id") String bootId,
            @JsonbProperty("booted_at") long bootedAt, @JsonbProperty("lease_ms") long leaseMs,
            @JsonbProperty("lease_renewed_at") long leaseRenewedAt, @JsonbProperty("lease_error") String leaseError,
            @JsonbProperty("same_id_live_boots") List<String> sameIdLiveBoots, List<LiveBoot> live,
            @JsonbProperty("live_error") String liveError) {
    }

    private InstanceView instance() {
        List<LiveBoot> live = null;
        String liveError = null;
        try {
            live = leases.live(System.currentTimeMillis(), settings.instance().leaseMs()).stream()
                    .map(l -> new LiveBoot(l.getInstanceId(), l.getBootId(), l.getStartedAt(), l.getHeartbeatAt()))
                    .toList();
        } catch (RuntimeException e) {
            liveError = String.valueOf(e.getMessage());
        }
        return new InstanceView(incarnation.instanceId(), incarnation.bootId(), incarnation.bootedAt(),
                settings.instance().leaseMs(), incarnation.renewedAt(), incarnation.renewalError(),
                orNull(incarnation.duplicates()), live, liveError);
    }

    private static List<String> orNull(List<String> list) {
        return list.isEmpty() ? null : list;
    }

    /** A server boot whose lease holds. */
    public record LiveBoot(@JsonbProperty("instance_id") String instanceId, @JsonbProperty("boot_id") String bootId,
            @JsonbProperty("started_at") long startedAt, @JsonbProperty("heartbeat_at") long heartbeatAt) {
    }
}
