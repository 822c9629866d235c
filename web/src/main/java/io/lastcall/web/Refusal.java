package io.lastcall.web;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A refused request's body, for the servlet paths outside JAX-RS: a reason code and a sentence. */
public record Refusal(String reason, String message) {

    private static final Jsonb JSON = JsonbBuilder.create();

    /**
     * Whether a 401 should carry the Basic challenge: not for the dashboard's own requests
     * (X-Requested-With), or the browser would put up its login dialog over the page's form.
     */
    static boolean challenge(String requestedWith) {
        return requestedWith == null;
    }

    /** Writes the refusal with its status; a 401 carries the Basic challenge unless the dashboard asked. */
    public void send(HttpServletRequest request, HttpServletResponse response, int status) throws IOException {
        response.setStatus(status);
        if (status == 401 && challenge(request.getHeader("X-Requested-With"))) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"lastcall\"");
        }
        response.setContentType("application/json");
        response.getWriter().write(JSON.toJson(this));
    }
}
