package io.lastcall.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The simulated model under /simulated-model, apart from the protected /api: lastcall calls it
 * like any model backend, without the API's credentials (and it is off unless enabled).
 */
@ApplicationPath("/simulated-model")
public class SimulatorApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(SimulatedModelResource.class);
    }
}
