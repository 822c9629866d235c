package io.lastcall.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /api/me}: who the credentials belong to and which of lastcall's roles they hold —
 * what the dashboard uses to show operators' buttons to operators only (the API enforces it anyway).
 */
@APIResponse(responseCode = "401", description = Roles.UNAUTHENTICATED)
@APIResponse(responseCode = "403", description = Roles.FORBIDDEN)
@RequestScoped
@Path("me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    /** The caller. */
    public record Me(String user, List<String> roles) {
    }

    @GET
    @SecurityRequirement(name = Roles.SCHEME, scopes = {Roles.SUBMITTER, Roles.VIEWER, Roles.OPERATOR})
    public Me me(@Context SecurityContext security) {
        return new Me(security.getUserPrincipal().getName(), Stream.of(Roles.SUBMITTER, Roles.OPERATOR, Roles.VIEWER)
                .filter(security::isUserInRole).toList());
    }
}
