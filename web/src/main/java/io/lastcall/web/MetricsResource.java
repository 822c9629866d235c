package io.lastcall.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /lastcall/metrics}: the Prometheus text exposition (format 0.0.4) — outcomes,
 * latency histograms, permits, queue depths, money; labels workload, outcome, reason, state and
 * queue only. A stock Prometheus scrapes it with {@code basic_auth} in its scrape config.
 */
@RequestScoped
@Path("")
public class MetricsResource {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    @Inject
    MetricsPage metrics;

    // no @Produces: the answer is always the Prometheus text, whatever the client accepts (a
    // declared type would make JAX-RS answer 406 before the role check for Accept: application/json)
    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    @APIResponse(responseCode = "200", description = "the metrics in the Prometheus text format")
    @APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
    @APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
    public Response scrape() {
        return Response.ok(metrics.scrape(), PROMETHEUS_TEXT).build();
    }
}
