package io.lastcall.web;

import io.lastcall.dispatch.Quarantine;
import io.lastcall.job.QuarantinedMessage;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    public List<Map<String, Object>> list(@QueryParam("limit") @DefaultValue("1000") int limit) {
        return quarantine.newest(limit).stream().map(QuarantineResource::view).toList();
    }

    private static Map<String, Object> view(QuarantinedMessage q) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", q.getId());
        v.put("message_id", q.getMessageId());
        v.put("queue", q.getQueue());
        v.put("job_id", q.getJobId());
        v.put("reason", q.getReason());
        v.put("detail", q.getDetail());
        v.put("body", q.getBody());
        v.put("quarantined_at", q.getQuarantinedAt());
        return v;
    }
}
