package io.lastcall.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The API under /api: every resource here needs a role ({@link RoleCheck}, web.xml). The OpenAPI
 * definition and the Basic security scheme whose scopes are the roles are declared here.
 */
@ApplicationPath("/api")
@OpenAPIDefinition(info = @Info(title = "lastcall", version = "0.1", description = "Deadline-bound AI jobs"
        + " from RabbitMQ: never handed to the model after their deadline, one auditable outcome each. Every"
        + " operation takes HTTP Basic credentials of a user in the server's realm; the scopes of its security"
        + " requirement are the roles that may call it. Errors are JSON {reason, message}."))
@SecurityScheme(securitySchemeName = Roles.SCHEME, type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "a lastcall user: submitter, operator or viewer")
public class LastcallApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(RoleCheck.class, JobsResource.class, SubjectsResource.class, StatsResource.class,
                QuarantineResource.class, DeliveriesResource.class, HealthResource.class, ConfigResource.class, MeResource.class,
                BatchResource.class, FailureMapper.class);
    }
}
