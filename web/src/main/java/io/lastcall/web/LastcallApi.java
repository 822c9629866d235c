package io.lastcall.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Mounts every resource of this package under /api. */
@ApplicationPath("/api")
public class LastcallApi extends Application {
}
