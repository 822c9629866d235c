package io.lastcall.web;

import io.lastcall.ledger.JobFilter;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.ingress.JobIngress;
import io.lastcall.ingress.Rejection;
import io.lastcall.job.Job;
import io.lastcall.operator.OperatorCommands;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code POST /api/jobs} (submit), {@code GET /api/jobs/{id}} (with trace and attempts), cancel. */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    @EJB
    JobIngress ingress;

    @EJB
    LedgerQueries queries;

    @EJB
    OperatorCommands operator;

    @Inject
    Clock clock;

    @Inject
    Settings settings;

    @Context
    SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = Roles.SCHEME, scopes = Roles.SUBMITTER)
    @APIResponse(responseCode = "201", description = "accepted: the job view")
    @APIResponse(responseCode = "200", description = "the same envelope again: the existing job, nothing repeated")
    @APIResponse(responseCode = "400", description = "BODY_MALFORMED, JOB_ID_MALFORMED, WORKLOAD_MISSING, SCHEMA_MISSING,"
            + " DEADLINE_MISSING, DEADLINE_MALFORMED, SEMANTICS_INVALID, MIN_EXECUTION_MISSING,"
            + " MIN_EXECUTION_MALFORMED, SUBJECT_MISSING, SUBJECT_INVALID, REVISION_MISSING, REVISION_INVALID,"
            + " TENANT_INVALID,"
            + " PAYLOAD_MISSING, PAYLOAD_INVALID")
    @APIResponse(responseCode = "409", description = "DEADLINE_CONFLICT, JOB_ID_TAKEN")
    @APIResponse(responseCode = "413", description = "BODY_TOO_LARGE")
    @APIResponse(responseCode = "415", description = "not application/json")
    @APIResponse(responseCode = "422", description = "WORKLOAD_UNKNOWN, SCHEMA_UNSUPPORTED, DEADLINE_PASSED,"
            + " DEADLINE_TOO_FAR, MIN_EXECUTION_DOES_NOT_FIT, PAYLOAD_NOT_ACCOUNTABLE, PRICE_UNKNOWN,"
            + " TENANT_NOT_ALLOWED")
    @APIResponse(responseCode = "503", description = "CLOCK_UNHEALTHY, LEDGER_UNAVAILABLE")
    public Response submit(InputStream stream) throws IOException {
        SingleSubmission.Answer answer = SingleSubmission.answer(stream, settings.ingress().maxBodyBytes(),
                security.getUserPrincipal().getName(), ingress, queries);
        return answer.body() instanceof Refusal refusal ? refusal.response(answer.status())
                : Response.status(answer.status()).entity(answer.body()).build();
    }

    /**
     * {@code GET /api/jobs?workload=&outcome=&state=&reason=&from=&to=&limit=&after=}: one page in
     * accepted order and the cursor of the next ({@code next}, null on the last page); a submitter
     * sees only its own jobs.
     */
    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.SUBMITTER, Roles.VIEWER, Roles.OPERATOR})
    public Response search(@Context UriInfo uri) {
        JobFilter filter;
        try {
            filter = JobSearch.filter(uri.getQueryParameters(), ownOnly());
        } catch (JobSearch.Invalid e) {
            return new Refusal("FILTER_INVALID", e.getMessage()).response(400);
        }
        List<Job> page = queries.search(filter);
        Job last = page.isEmpty() ? null : page.get(page.size() - 1);
        return Response.ok(new JobPage(page.stream().map(JobJson::summary).toList(),
                page.size() < filter.limit() || last == null ? null
                        : JobSearch.cursor(last.getAcceptedAt(), last.getJobId()))).build();
    }

    /** One page of a search, and the cursor of the next (null on the last page). */
    @JsonbNillable
    public record JobPage(List<JobJson.JobSummary> jobs, String next) {
    }

    /** A cancel that came too late: why, and the job as it stands. */
    public record CancelConflict(String reason, String message, JobJson.JobView job) {
    }

    /**
     * {@code GET /api/jobs/export?format=csv|json&…}: the same filter, streamed, one row per attempt
     * with the trace, usage, cost, reservation and estimate revision.
     */
    @GET
    @Path("export")
    @Produces({"text/csv", MediaType.APPLICATION_JSON})
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public Response export(@Context UriInfo uri, @QueryParam("format") @DefaultValue("csv") String format) {
        JobFilter filter;
        try {
            filter = JobSearch.filter(uri.getQueryParameters(), null);
        } catch (JobSearch.Invalid e) {
            return new Refusal("FILTER_INVALID", e.getMessage()).response(400);
        }
        return switch (format) {
            case "csv" -> Response.ok(LedgerExport.csv(queries, filter), "text/csv; charset=UTF-8")
                    .header("Content-Disposition", "attachment; filename=\"lastcall-ledger.csv\"").build();
            case "json" -> Response.ok(LedgerExport.json(queries, filter), MediaType.APPLICATION_JSON_TYPE).build();
            default -> new Refusal("FILTER_INVALID", "format must be csv or json").response(400);
        };
    }

    /** The submitter itself when it may see only its own jobs, else null (all jobs). */
    private String ownOnly() {
        return security.isUserInRole(Roles.VIEWER) || security.isUserInRole(Roles.OPERATOR) ? null
                : security.getUserPrincipal().getName();
    }

    /** A submitter sees only its own jobs; another's are as unknown as missing ones. */
    @GET
    @Path("{id}")
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.SUBMITTER, Roles.VIEWER, Roles.OPERATOR})
    public Response get(@PathParam("id") String id) {
        return queries.details(id).filter(d -> mayRead(d.job())).map(d -> Response.ok(JobJson.of(d)).build())
                .orElseGet(() -> unknown(id));
    }

    /**
     * {@code POST /api/jobs/{id}/cancel}: 200 with the CANCELED job; 409 {@code ALREADY_CLAIMED}
     * once the gate granted its claim (the job keeps its real outcome), 409 {@code ALREADY_ENDED}.
     */
    @POST
    @Path("{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.SUBMITTER, Roles.OPERATOR})
    public Response cancel(@PathParam("id") String id) {
        if (!security.isUserInRole(Roles.OPERATOR)
                && queries.find(id).filter(job -> owns(job)).isEmpty()) {
            return unknown(id);
        }
        OperatorCommands.CancelResult result = operator.cancel(id, clock.millis());
        return switch (result) {
            case CANCELED -> Response.ok(view(id)).build();
            case UNKNOWN_JOB -> unknown(id);
            case ALREADY_CLAIMED -> conflict(id, result, "the job was already claimed for dispatch and may have reached"
                    + " the model; it keeps its real outcome");
            case ALREADY_ENDED -> conflict(id, result, "the job has already ended");
        };
    }

    private boolean mayRead(Job job) {
        return security.isUserInRole(Roles.VIEWER) || security.isUserInRole(Roles.OPERATOR) || owns(job);
    }

    private boolean owns(Job job) {
        return security.getUserPrincipal() != null
                && security.getUserPrincipal().getName().equals(job.getSubmittedBy());
    }

    private static Response unknown(String id) {
        return new Refusal("JOB_UNKNOWN", "no job " + id).response(404);
    }

    private Response conflict(String id, OperatorCommands.CancelResult result, String message) {
        return Response.status(409).entity(new CancelConflict(result.name(), message, view(id))).build();
    }

    private JobJson.JobView view(String jobId) {
        return JobJson.of(queries.details(jobId).orElseThrow());
    }

    static Response error(Rejection reason, String message) {
        return Refusal.of(reason, message).response(reason.status());
    }
}
