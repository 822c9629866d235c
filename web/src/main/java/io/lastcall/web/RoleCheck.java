package io.lastcall.web;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * Enforces each resource method's roles (or its class's) with the container's authenticated
 * user: the scopes of its MicroProfile OpenAPI {@link SecurityRequirement} on scheme
 * {@link Roles#SCHEME} — one declaration that both this check and the OpenAPI document read. None
 * → 401 with a Basic challenge, no matching role → 403, both with a machine-readable reason.
 * Plain JAX-RS, so it works the same on Jersey (Payara) and RESTEasy (WildFly). A method without
 * a requirement is refused: every endpoint names its roles. (Not {@code @RolesAllowed}: with it in
 * the web module, Payara 6 answered 401 for every unauthenticated URL after a redeploy.)
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
        SecurityContext security = request.getSecurityContext();
        Roles.deny(security.getUserPrincipal(), security::isUserInRole,
                Roles.allowed(method, resource.getResourceClass()))
                .ifPresent(denied -> request.abortWith(denied.response(request.getHeaderString("X-Requested-With"))));
    }
}
