package io.lastcall.web;

import jakarta.ws.rs.Consumes;
import io.lastcall.reconcile.LedgerStats;
import io.lastcall.reconcile.Reconciler;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/stats}: per workload counts by outcome and reason, in flight, actual spend,
 * reserved exposure, estimated avoided exposure (by estimate revision) and the invariant.
 * {@code POST /api/reconcile}: one reconciler pass now, and what it did.
 */
@RequestScoped
@Path("")
@Produces(MediaType.APPLICATION_JSON)
public class StatsResource {

    @EJB
    LedgerStats stats;

    @EJB
    Reconciler reconciler;

    @Inject
    Clock clock;

    @GET
    @Path("stats")
    @Allowed({Roles.VIEWER, Roles.OPERATOR})
    public Map<String, Object> stats() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("workloads", view(stats.byWorkload(clock.millis())));
        return body;
    }

    @POST
    @Path("reconcile")
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Roles.OPERATOR)
    public Map<String, Object> reconcile() {
        Reconciler.Report report = reconciler.run();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", report.at());
        body.put("republished", report.republished());
        body.put("expired", report.expired());
        body.put("revoked", report.revoked());
        body.put("outcome_unknown", report.unknown());
        body.put("previous_boot", report.previousBoot());
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
            v.put("reasons", w.reasons);
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
