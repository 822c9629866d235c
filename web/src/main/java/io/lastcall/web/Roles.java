package io.lastcall.web;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Predicate;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** lastcall's roles (docs/operating.md, "Users and roles"); an operator can do everything a viewer can. */
final class Roles {

    static final String SUBMITTER = "submitter";
    static final String OPERATOR = "operator";
    static final String VIEWER = "viewer";

    /**
     * The OpenAPI security scheme (HTTP Basic) whose scopes on a resource method are the roles
     * that may call it: {@link RoleCheck} enforces them, and the OpenAPI document shows them.
     */
    static final String SCHEME = "basic";

    static final String UNAUTHENTICATED = "UNAUTHENTICATED: no credentials, or a wrong user or password";
    static final String FORBIDDEN = "FORBIDDEN: the user has none of the roles this operation's security scopes name";

    /**
     * Whether {@code user} may call an endpoint open to {@code roles}: empty if so, else 401
     * (nobody logged in) or 403 (none of the roles) and why. The one rule for the JAX-RS resources
     * ({@link RoleCheck}) and the servlets ({@link MetricsServlet}, {@link JobSubmitFilter}).
     */
    static Optional<Refused> deny(Principal user, Predicate<String> hasRole, String... roles) {
        if (user == null) {
            return Optional.of(new Refused(401,
                    new Refusal("UNAUTHENTICATED", "HTTP Basic credentials of a lastcall user are required")));
        }
        if (Arrays.stream(roles).anyMatch(hasRole)) {
            return Optional.empty();
        }
        return Optional.of(new Refused(403, new Refusal("FORBIDDEN", "user " + user.getName()
                + " lacks the role this needs: " + (roles.length == 0 ? "none configured" : String.join(" or ", roles)))));
    }

    /**
     * The roles that may call a resource method: the scopes of its {@link SecurityRequirement}
     * on {@link #SCHEME}, or its resource class's when it has none; none when neither has one.
     */
    static String[] allowed(Method method, Class<?> resourceClass) {
        SecurityRequirement requirement = method.isAnnotationPresent(SecurityRequirement.class)
                ? method.getAnnotation(SecurityRequirement.class)
                : resourceClass.getAnnotation(SecurityRequirement.class);
        return requirement == null ? new String[0] : requirement.scopes();
    }

    private Roles() {
    }
}
