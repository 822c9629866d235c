package io.lastcall.web;

import io.lastcall.broker.BrokerTopology;
import io.lastcall.clock.ClockHealth;
import io.lastcall.dispatch.DispatchPermits;
import io.lastcall.health.Health;
import io.lastcall.instance.Incarnation;
import io.lastcall.broker.ConsumerStatus;
import io.lastcall.instance.LeaseLedger;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /api/health}: 200 when the database answers, the topology is declared, every
 * RabbitMQ consumer of every activation is connected and the clock admits jobs; 503 otherwise,
 * with the reasons. Also reports dispatch permits in use and jobs waiting locally for one.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("health")
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {

    @Inject
    Health health;

    @EJB
    DispatchPermits permits;

    @EJB
    Incarnation incarnation;

    @EJB
    LeaseLedger leases;

    @Inject
    Settings settings;

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR, Roles.SUBMITTER})
    public Response health() {
        Map<String, Object> body = new LinkedHashMap<>();
        Health.Snapshot now = health.now();

        Map<String, Object> db = new LinkedHashMap<>();
        db.put("status", now.database().up() ? "UP" : "DOWN");
        if (now.database().up()) {
            db.put("product", now.database().product());
        } else {
            db.put("error", now.database().error());
        }

        Map<String, Object> broker = new LinkedHashMap<>();
        BrokerTopology.Readiness readiness = now.broker();
        broker.put("status", readiness.up() ? "UP" : "DOWN");
        broker.put("connected", readiness.consumersConnected());
        broker.put("topology_declared", readiness.topologyDeclared());
        if (readiness.topologyError() != null) {
            broker.put("topology_error", readiness.topologyError());
        }
        if (!readiness.missingQueues().isEmpty()) {
            broker.put("missing_queues", readiness.missingQueues());
        }
        if (!readiness.unconsumedWorkQueues().isEmpty()) {
            broker.put("unconsumed_work_queues", readiness.unconsumedWorkQueues());
        }
        broker.put("consumers", readiness.activations().stream().map(HealthResource::view).toList());

        ClockHealth.Reading reading = now.clock().reading();
        Map<String, Object> clockView = new LinkedHashMap<>();
        clockView.put("status", reading.status().name());
        clockView.put("reference", reading.reference());
        clockView.put("skew_ms", reading.skewMs());
        clockView.put("detail", reading.detail());
        clockView.put("admitting", now.clock().admitting());

        Map<String, Object> dispatch = new LinkedHashMap<>();
        dispatch.put("permits", permits.size());
        dispatch.put("in_use", permits.inUse());
        dispatch.put("waiting", permits.waiting());

        // two live servers with one instance id: each would take the other's handoffs for its own
        boolean shared = !incarnation.duplicates().isEmpty();
        boolean up = now.up() && !shared;
        body.put("status", up ? "UP" : "DOWN");
        if (!now.up()) {
            body.put("cause", now.cause());
        } else if (shared) {
            body.put("cause", "instance: id " + incarnation.instanceId() + " is also used by live boot(s) "
                    + incarnation.duplicates() + "; give each server its own lastcall.instance.id");
        }
        body.put("database", db);
        body.put("broker", broker);
        body.put("clock", clockView);
        body.put("dispatch", dispatch);
        body.put("instance", instance());
        return Response.status(up ? 200 : 503).entity(body).build();
    }

    /** This server boot, its lease, and every boot whose lease holds (the servers sharing the ledger). */
    private Map<String, Object> instance() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", incarnation.instanceId());
        v.put("boot_id", incarnation.bootId());
        v.put("booted_at", incarnation.bootedAt());
        v.put("lease_ms", settings.instanceLeaseMs());
        v.put("lease_renewed_at", incarnation.renewedAt());
        if (incarnation.renewalError() != null) {
            v.put("lease_error", incarnation.renewalError());
        }
        if (!incarnation.duplicates().isEmpty()) {
            v.put("same_id_live_boots", incarnation.duplicates());
        }
        try {
            v.put("live", leases.live(System.currentTimeMillis(), settings.instanceLeaseMs()).stream()
                    .map(l -> new LiveBoot(l.getInstanceId(), l.getBootId(), l.getStartedAt(), l.getHeartbeatAt()))
                    .toList());
        } catch (RuntimeException e) {
            v.put("live_error", String.valueOf(e.getMessage()));
        }
        return v;
    }

    /** A server boot whose lease holds. */
    public record LiveBoot(@JsonbProperty("instance_id") String instanceId, @JsonbProperty("boot_id") String bootId,
            @JsonbProperty("started_at") long startedAt, @JsonbProperty("heartbeat_at") long heartbeatAt) {
    }

    private static Map<String, Object> view(ConsumerStatus.Activation a) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("queue", a.queue());
        v.put("broker", a.broker());
        v.put("connected", a.connected());
        v.put("consumers_connected", a.consumersConnected());
        v.put("consumers_configured", a.consumersConfigured());
        v.put("prefetch", a.prefetch());
        v.put("delivered", a.delivered());
        v.put("acknowledged", a.acknowledged());
        v.put("requeued", a.requeued());
        v.put("rejected", a.rejected());
        v.put("paused", a.paused());
        v.put("missing_queues", a.missingQueues());
        v.put("last_error", a.lastError());
        return v;
    }
}
