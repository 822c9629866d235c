package io.lastcall.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/**
 * A request turned away before or while it was served: its status and {@link Refusal}. What
 * {@link Roles#deny} (401/403) and {@link FailureMapper#failure} (503/500) answer, written the
 * same way by the JAX-RS filters and the servlets.
 */
record Refused(int status, Refusal refusal) {

    /** As a JAX-RS answer; a 401 carries the Basic challenge unless the dashboard asked. */
    Response response(String requestedWith) {
        return refusal.response(status, requestedWith);
    }

    /** Written on the servlet path, with the same headers as {@link #response(String)}. */
    void send(HttpServletRequest request, HttpServletResponse response) throws IOException {
        refusal.send(request, response, status);
    }
}
