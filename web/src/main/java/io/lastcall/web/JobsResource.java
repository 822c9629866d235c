package io.lastcall.web;

import io.lastcall.dispatch.JobLedger;
import io.lastcall.ingress.JobIngress;
import io.lastcall.ingress.Rejection;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.util.Map;

/** {@code POST /api/jobs} (submit) and {@code GET /api/jobs/{id}} (the job with trace and attempts). */
@RequestScoped
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    @EJB
    JobIngress ingress;

    @EJB
    JobLedger ledger;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response submit(String body) {
        JsonObject envelope;
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            envelope = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return error(Rejection.BODY_MALFORMED, "the body is not a JSON object: " + e.getMessage());
        }
        JobIngress.Outcome outcome = ingress.submit(envelope);
        if (outcome.rejection() != null) {
            return error(outcome.rejection(), outcome.message());
        }
        return Response.status(outcome.status()).entity(view(outcome.jobId())).build();
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("id") String id) {
        return ledger.details(id).map(d -> Response.ok(JobJson.of(d)).build())
                .orElseGet(() -> Response.status(404).entity(Map.of("reason", "JOB_UNKNOWN",
                        "message", "no job " + id)).build());
    }

    private Map<String, Object> view(String jobId) {
        return JobJson.of(ledger.details(jobId).orElseThrow());
    }

    static Response error(Rejection reason, String message) {
        return Response.status(reason.status()).entity(Map.of("reason", reason.name(),
                "message", message == null ? reason.name() : message)).build();
    }
}
