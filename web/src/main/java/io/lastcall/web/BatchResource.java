package io.lastcall.web;

import io.lastcall.ingress.JobIngress;
import io.lastcall.ingress.Rejection;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code POST /api/jobs/batch} with {@code {"jobs":[envelope, …]}} (up to
 * {@code lastcall.ingress.max-batch-size}): one result per envelope, in order, with the status
 * and reason a single submission would get; the new jobs are persisted in one transaction and
 * published pipelined.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("jobs/batch")
@Produces(MediaType.APPLICATION_JSON)
public class BatchResource {

    /** One envelope's answer. */
    public record Item(int index, @JsonbProperty("job_id") String jobId, int status, String reason, String message) {
    }

    /** The whole answer, with the counts of each kind. */
    public record Result(int accepted, int repeated, int refused, List<Item> results) {
    }

    @EJB
    JobIngress ingress;

    @Inject
    Settings settings;

    @Context
    SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = Roles.SCHEME, scopes = Roles.SUBMITTER)
    @APIResponse(responseCode = "200", description = "one result per envelope: status 201, 200 or the 4xx/503 and"
            + " reason a single submission would get")
    @APIResponse(responseCode = "400", description = "BATCH_INVALID: not {\"jobs\":[…]}, empty, or more envelopes"
            + " than lastcall.ingress.max-batch-size")
    @APIResponse(responseCode = "413", description = "BODY_TOO_LARGE")
    public Response submit(InputStream stream) throws IOException {
        long max = settings.ingress().maxBatchBodyBytes();
        Optional<String> body = BoundedBody.read(stream, max);
        if (body.isEmpty()) {
            return JobsResource.error(Rejection.BODY_TOO_LARGE, "the batch is larger than " + max
                    + " bytes (lastcall.ingress.max-batch-body-bytes)");
        }
        Optional<JsonArray> jobs = JsonBody.object(body.get()).map(o -> o.get("jobs"))
                .filter(v -> v.getValueType() == JsonValue.ValueType.ARRAY).map(JsonValue::asJsonArray);
        int limit = settings.ingress().maxBatchSize();
        if (jobs.isEmpty() || jobs.get().isEmpty() || jobs.get().size() > limit) {
            return new Refusal("BATCH_INVALID", "the body must be {\"jobs\":[…]} with 1 to " + limit
                    + " envelopes (lastcall.ingress.max-batch-size)").response(400);
        }
        List<JsonObject> envelopes = new ArrayList<>();
        List<Integer> notObjects = new ArrayList<>();
        for (int i = 0; i < jobs.get().size(); i++) {
            JsonValue v = jobs.get().get(i);
            if (v.getValueType() == JsonValue.ValueType.OBJECT) {
                envelopes.add(v.asJsonObject());
            } else {
                notObjects.add(i);
            }
        }
        List<JobIngress.Verdict> outcomes = ingress.submitAll(envelopes, security.getUserPrincipal().getName());
        List<Item> items = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < jobs.get().size(); i++) {
            if (notObjects.contains(i)) {
                items.add(new Item(i, null, Rejection.BODY_MALFORMED.status(), Rejection.BODY_MALFORMED.name(),
                        "this item is not a JSON object"));
                continue;
            }
            JobIngress.Verdict o = outcomes.get(next);
            String jobId = o.jobId() != null ? o.jobId() : envelopes.get(next).getString("job_id", null);
            items.add(new Item(i, jobId, o.status(), o.rejection() == null ? null : o.rejection().name(),
                    o.message()));
            next++;
        }
        return Response.ok(new Result(count(items, 201), count(items, 200),
                items.size() - count(items, 201) - count(items, 200), items)).build();
    }

    private static int count(List<Item> items, int status) {
        return (int) items.stream().filter(i -> i.status() == status).count();
    }
}
