package io.lastcall.web;

import io.lastcall.broker.QueueDepths;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.ledger.LedgerStats;
import io.lastcall.reconcile.Reconciler;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /api/stats}: per workload counts by outcome and reason, in flight, actual spend,
 * reserved exposure, estimated avoided exposure (by estimate revision) and the invariant, and the
 * lastcall queues' depths in RabbitMQ. {@code GET /api/stats/timeline}: jobs ended per minute.
 * {@code POST /api/reconcile}: one reconciler pass now, and what it did.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("")
@Produces(MediaType.APPLICATION_JSON)
public class StatsResource {

    @EJB
    LedgerStats stats;

    @EJB
    Reconciler reconciler;

    @EJB
    LedgerQueries queries;

    @Inject
    QueueDepths queueDepths;

    @Inject
    Clock clock;

    @GET
    @Path("stats")
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public Map<String, Object> stats() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("workloads", view(stats.byWorkload(clock.millis())));
        body.put("queues", queueDepths.read());
        return body;
    }

    /** The dashboard's chart: jobs ended per minute, by workload and outcome. */
    public record Timeline(long from, List<LedgerQueries.EndedInMinute> minutes) {
    }

    /** {@code GET /api/stats/timeline?minutes=60} (1 to 1440). */
    @GET
    @Path("stats/timeline")
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public Response timeline(@QueryParam("minutes") @DefaultValue("60") int minutes) {
        if (minutes < 1 || minutes > 1440) {
            return new Refusal("FILTER_INVALID", "minutes must be 1-1440").response(400);
        }
        long from = (clock.millis() / 60_000 - minutes + 1) * 60_000;
        return Response.ok(new Timeline(from, queries.endedPerMinute(from))).build();
    }

    @POST
    @Path("reconcile")
    @Consumes(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = Roles.SCHEME, scopes = Roles.OPERATOR)
    public Map<String, Object> reconcile() {
        Reconciler.Report report = reconciler.run();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", report.at());
        body.put("republished", report.republished());
        body.put("expired", report.expired());
        body.put("revoked", report.revoked());
        body.put("outcome_unknown", report.unknown());
        body.put("previous_boot", report.previousBoot());
        body.put("lapsed_leases", report.lapsedLeases());
        body.put("rolled_up", report.rolledUp());
        body.put("purged", Map.of("jobs", report.purged().jobs(), "deliveries", report.purged().deliveries(),
                "quarantined", report.purged().quarantined()));
        body.put("failures", report.failures());
        body.put("invariant_holds", report.invariantHolds());
        body.put("workloads", view(report.workloads()));
        return body;
    }

    private static Map<String, Object> view(Map<String, LedgerStats.Workload> workloads) {
        Map<String, Object> all = new LinkedHashMap<>();
        workloads.forEach((name, w) -> {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("accepted", w.accepted);
            v.put("jobs", w.jobs);
            v.put("terminal", w.terminal);
            v.put("in_flight", w.inFlight);
            v.put("outcomes", w.outcomes);
            Map<String, Long> reasons = new java.util.TreeMap<>();
            w.byOutcome.forEach((o, n) -> reasons.put(o.key(), n));
            v.put("reasons", reasons);
            v.put("in_flight_by_state", w.inFlightByState);
            v.put("attempts", w.attempts);
            v.put("actual_spend", w.actualSpend);
            v.put("reserved", w.reserved);
            v.put("estimated_avoided_exposure", w.avoidedExposure);
            v.put("estimated_avoided_exposure_by_estimate_revision", w.avoidedExposureByEstimateRevision);
            v.put("overdue_in_flight", w.overdue);
            v.put("double_claims", w.doubleClaims);
            v.put("invariant_holds", w.invariantHolds());
            all.put(name, v);
        });
        return all;
    }
}
