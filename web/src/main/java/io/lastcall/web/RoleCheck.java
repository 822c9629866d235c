package io.lastcall.web;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Enforces each resource method's {@link Allowed} roles (or its class's) with the container's
 * authenticated user: none → 401 with a Basic challenge, no matching role → 403, both with a
 * machine-readable reason. Plain JAX-RS, so it works the same on Jersey (Payara) and RESTEasy
 * (WildFly). A method with neither annotation is refused: every endpoint names its roles.
 */
@Provider
public class RoleCheck implements ContainerRequestFilter {

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource.getResourceMethod();
        if (method == null) {
            return;
        }
        Allowed allowed = method.isAnnotationPresent(Allowed.class) ? method.getAnnotation(Allowed.class)
                : resource.getResourceClass().getAnnotation(Allowed.class);
        SecurityContext security = request.getSecurityContext();
        if (security.getUserPrincipal() == null) {
            Response.ResponseBuilder refused = Response.status(401).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new Refusal("UNAUTHENTICATED", "HTTP Basic credentials of a lastcall user are required"));
            if (Refusal.challenge(request.getHeaderString("X-Requested-With"))) {
                refused.header("WWW-Authenticate", "Basic realm=\"lastcall\"");
            }
            request.abortWith(refused.build());
            return;
        }
        if (allowed == null || Arrays.stream(allowed.value()).noneMatch(security::isUserInRole)) {
            request.abortWith(Response.status(403).type(MediaType.APPLICATION_JSON_TYPE).entity(new Refusal(
                    "FORBIDDEN", "user " + security.getUserPrincipal().getName() + " lacks the role this needs: "
                            + (allowed == null ? "none configured" : String.join(" or ", allowed.value())))).build());
        }
    }
}
