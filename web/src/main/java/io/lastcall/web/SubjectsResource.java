package io.lastcall.web;

import io.lastcall.operator.OperatorCommands;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code POST /api/subjects/{subject}/revisions} with {@code {"source_revision":"r8"}}: r8 is now
 * the subject's newest input unless a newer one is on record (docs/api.md, "Revisions"); its jobs of
 * older revisions that are not claimed yet end SUPERSEDED (now, or at the gate). Answers the
 * revision on record and the ids superseded now.
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("subjects/{subject}/revisions")
@Produces(MediaType.APPLICATION_JSON)
public class SubjectsResource {

    @EJB
    OperatorCommands operator;

    @Inject
    Clock clock;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = Roles.SCHEME, scopes = Roles.OPERATOR)
    public Response announce(@PathParam("subject") String subject, String body) {
        String revision = JsonBody.object(body)
                .map(o -> o.get("source_revision") instanceof JsonString s && !s.getString().isBlank() ? s.getString()
                        : null)
                .orElse(null);
        if (revision == null) {
            return new Refusal("REVISION_MISSING", "the body must be {\"source_revision\":\"…\"}").response(400);
        }
        OperatorCommands.Supersession result = operator.supersede(subject, revision, clock.millis());
        return Response.ok(Map.of("subject", subject, "source_revision", revision,
                "latest_revision", result.latestRevision(), "superseded", result.superseded())).build();
    }
}
