package io.lastcall.web;

import io.lastcall.dispatch.Quarantine;
import io.lastcall.job.QuarantinedMessage;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.DefaultValue;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code GET /api/quarantine?limit=n}: messages lastcall would not trust, newest first, with the reason. */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("quarantine")
@Produces(MediaType.APPLICATION_JSON)
public class QuarantineResource {

    @EJB
    Quarantine quarantine;

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.VIEWER, Roles.OPERATOR})
    public List<QuarantinedView> list(@QueryParam("limit") @DefaultValue("1000") int limit) {
        return quarantine.newest(limit).stream().map(QuarantinedView::of).toList();
    }

    /** A quarantined message: where it came from, why it was kept aside, and what it said. */
    @JsonbNillable
    public record QuarantinedView(Long id, @JsonbNillable @JsonbProperty("message_id") String messageId, String queue,
            @JsonbNillable @JsonbProperty("job_id") String jobId, String reason, String detail, String body,
            @JsonbNillable @JsonbProperty("quarantined_at") long quarantinedAt) {

        static QuarantinedView of(QuarantinedMessage q) {
            return new QuarantinedView(q.getId(), q.getMessageId(), q.getQueue(), q.getJobId(), q.getReason(),
                    q.getDetail(), q.getBody(), q.getQuarantinedAt());
        }
    }
}
