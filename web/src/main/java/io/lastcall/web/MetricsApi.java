package io.lastcall.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The Prometheus endpoint at /metrics, where scrape configs expect it (not under /api), with the
 * same login filter and role check as the API.
 */
@ApplicationPath("/metrics")
public class MetricsApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(RoleCheck.class, MetricsResource.class);
    }
}
