package io.lastcall.web;

import io.lastcall.broker.QueueDepths;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.ledger.BackendStates;
import io.lastcall.ledger.LedgerStats;
import io.lastcall.metrics.LastcallMetrics;
import io.lastcall.metrics.ModelLatencies;
import io.lastcall.policy.Settings;
import io.lastcall.reconcile.Reconciler;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbProperty;
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
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
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

    @EJB
    BackendStates backendStates;

    @Inject
    Settings settings;

    @Inject
    ModelLatencies latencies;

    @Inject
    LastcallMetrics metrics;

    @Inject
    Clock clock;

    @GET
    @Path("stats")
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public Stats stats() {
        long now = clock.millis();
        Map<String, ModelLatencies.BackendLatency> latency = latencies.byBackend();
        return new Stats(view(stats.byWorkload(now)), queueDepths.read(), backendStates.read(now,
                settings.backends()).stream()
                .map(b -> BackendView.of(b, latency.get(b.backend()), metrics.tooManyRequestsFrom(b.backend()))).toList(),
                TenantView.of(stats.byTenant(now)));
    }

    /**
     * Each workload's figures, the queues' depths in RabbitMQ, what the fleet knows of each model
     * backend, and each tenant's jobs of the last hour.
     */
    public record Stats(Map<String, WorkloadView> workloads, List<QueueDepths.Depth> queues,
            List<BackendView> backends, List<TenantView> tenants) {
    }

    /**
     * One tenant's jobs that ended in the last hour: how many; how many had a call, and what share
     * of all the calls that is; how many were answered on time, and what part of its jobs that is
     * (null when there is nothing to divide).
     */
    public record TenantView(String tenant, long ended, long dispatched, Double share,
            @JsonbProperty("on_time") long onTime, @JsonbProperty("on_time_rate") Double onTimeRate) {

        static List<TenantView> of(List<LedgerStats.Tenant> tenants) {
            long calls = tenants.stream().mapToLong(LedgerStats.Tenant::dispatched).sum();
            return tenants.stream().map(t -> new TenantView(t.tenant(), t.ended(), t.dispatched(),
                    calls == 0 ? null : t.dispatched() / (double) calls, t.onTime(),
                    t.ended() == 0 ? null : t.onTime() / (double) t.ended())).toList();
        }
    }

    /**
     * One model backend: its declared per-minute limits (0: none), what the fleet may still send
     * this minute (null without a limit or before its first claim), until when it asked not to be
     * called (epoch ms, null if never), and the answers this server had from it in the live
     * latency window with their p50 and p95 from claim to answer (nulls without answers), and the
     * 429s it had from it since it started.
     */
    public record BackendView(String backend, @JsonbProperty("requests_per_minute") long requestsPerMinute,
            @JsonbProperty("tokens_per_minute") long tokensPerMinute,
            @JsonbProperty("requests_left") Long requestsLeft, @JsonbProperty("tokens_left") Long tokensLeft,
            @JsonbProperty("paused_until") Long pausedUntil,
            @JsonbProperty("answers_in_window") long answersInWindow,
            @JsonbProperty("latency_p50_ms") Long latencyP50Ms, @JsonbProperty("latency_p95_ms") Long latencyP95Ms,
            @JsonbProperty("too_many_requests") long tooManyRequests) {

        static BackendView of(BackendStates.BackendState b, ModelLatencies.BackendLatency latency, long tooManyRequests) {
            return new BackendView(b.backend(), b.requestsPerMinute(), b.tokensPerMinute(),
                    b.requestsPerMinute() == 0 || b.requestsLeft() == null ? null : (long) Math.floor(b.requestsLeft()),
                    b.tokensPerMinute() == 0 || b.tokensLeft() == null ? null : (long) Math.floor(b.tokensLeft()),
                    b.pausedUntil() == 0 ? null : b.pausedUntil(), latency == null ? 0 : latency.answers(),
                    latency == null ? null : latency.p50Ms(), latency == null ? null : latency.p95Ms(), tooManyRequests);
        }
    }

    /**
     * One workload's predictive admission: its mode; jobs refused as predicted late and the money
     * not spent on them (their estimates); money spent on answers that came after their deadline;
     * the jobs the forecast named late (in shadow: what {@code on} would refuse), of which answered
     * on time anyway (false refusals) and answered late, and what those late answers cost.
     */
    public record AdmissionView(String mode, long refused,
            @JsonbProperty("refused_estimate") BigDecimal refusedEstimate,
            @JsonbProperty("late_spend") BigDecimal lateSpend,
            @JsonbProperty("predicted_late") long predictedLate,
            @JsonbProperty("false_refusals") long falseRefusals,
            @JsonbProperty("predicted_late_answered_late") long predictedLateAnsweredLate,
            @JsonbProperty("predicted_late_spend") BigDecimal predictedLateSpend) {

        static AdmissionView of(String mode, LedgerStats.Admission a) {
            return new AdmissionView(mode, a.refused, a.refusedEstimate, a.lateSpend, a.predictedLate,
                    a.predictedLateOnTime, a.predictedLateAnsweredLate, a.predictedLateSpend);
        }
    }

    /** One workload's counts, money and invariant. */
    public record WorkloadView(long accepted, long jobs, long terminal, @JsonbProperty("in_flight") long inFlight,
            Map<String, Long> outcomes, Map<String, Long> reasons,
            @JsonbProperty("in_flight_by_state") Map<String, Long> inFlightByState, long attempts,
            @JsonbProperty("actual_spend") BigDecimal actualSpend, BigDecimal reserved,
            @JsonbProperty("estimated_avoided_exposure") BigDecimal estimatedAvoidedExposure,
            @JsonbProperty("estimated_avoided_exposure_by_estimate_revision")
            Map<String, BigDecimal> estimatedAvoidedExposureByEstimateRevision,
            @JsonbProperty("overdue_in_flight") long overdueInFlight, @JsonbProperty("double_claims") long doubleClaims,
            @JsonbProperty("invariant_holds") boolean invariantHolds, AdmissionView admission) {

        static WorkloadView of(LedgerStats.Workload w, String admissionMode) {
            Map<String, Long> reasons = new TreeMap<>();
            w.byOutcome.forEach((o, n) -> reasons.put(o.key(), n));
            return new WorkloadView(w.accepted, w.jobs, w.terminal, w.inFlight, w.outcomes, reasons, w.inFlightByState,
                    w.attempts, w.actualSpend, w.reserved, w.avoidedExposure, w.avoidedExposureByEstimateRevision,
                    w.overdue, w.doubleClaims, w.invariantHolds(), AdmissionView.of(admissionMode, w.admission));
        }
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
    @APIResponse(responseCode = "200", description = "what the pass did, and the figures after it",
            content = @Content(schema = @Schema(implementation = Reconciled.class)))
    @APIResponse(responseCode = "503", description = "RECONCILER_BUSY: a pass has been running here for over a minute")
    public Response reconcile() {
        Reconciler.Report r = reconciler.run().orElse(null);
        if (r == null) {
            return new Refusal("RECONCILER_BUSY", "a reconciler pass has been running on this server for over a"
                    + " minute; try again later").response(503);
        }
        return Response.ok(new Reconciled(r.at(), r.republished(), r.expired(), r.revoked(), r.unknown(), r.previousBoot(),
                r.lapsedLeases(), r.rolledUp(), new Purged(r.purged().jobs(), r.purged().deliveries(),
                        r.purged().quarantined()), r.failures(), r.invariantHolds(), view(r.workloads()))).build();
    }

    /** What one reconciler pass did, and the figures after it. */
    public record Reconciled(long at, int republished, int expired, int revoked,
            @JsonbProperty("outcome_unknown") int outcomeUnknown, @JsonbProperty("previous_boot") int previousBoot,
            @JsonbProperty("lapsed_leases") int lapsedLeases, @JsonbProperty("rolled_up") int rolledUp, Purged purged,
            List<String> failures, @JsonbProperty("invariant_holds") boolean invariantHolds,
            Map<String, WorkloadView> workloads) {
    }

    /** What retention removed in the pass. */
    public record Purged(int jobs, int deliveries, int quarantined) {
    }

    private Map<String, WorkloadView> view(Map<String, LedgerStats.Workload> workloads) {
        Map<String, WorkloadView> all = new TreeMap<>();
        workloads.forEach((name, w) -> all.put(name, WorkloadView.of(w,
                settings.workloadOrDefault(name).admission().name().toLowerCase(java.util.Locale.ROOT))));
        return all;
    }
}
