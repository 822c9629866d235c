package io.lastcall.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** The API under /api: every resource here needs a role ({@link RoleCheck}, web.xml). */
@ApplicationPath("/api")
public class LastcallApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(RoleCheck.class, JobsResource.class, SubjectsResource.class, StatsResource.class,
                QuarantineResource.class, DeliveriesResource.class, HealthResource.class, ConfigResource.class, MeResource.class);
    }
}
