package io.lastcall.web;

import io.lastcall.ingress.Rejection;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;

/** A refused request's body: a reason code and a sentence, for JAX-RS answers and the login filter. */
public record Refusal(String reason, String message) {

    private static final String BASIC = "Basic realm=\"lastcall\"";
    private static final String RETRY_AFTER_SECONDS = "5";

    /** An ingress rejection's refusal: its code, and the message (the code when there is none). */
    static Refusal of(Rejection reason, String message) {
        return new Refusal(reason.name(), message == null ? reason.name() : message);
    }

    /**
     * Whether a 401 should carry the Basic challenge: not for the dashboard's own requests
     * (X-Requested-With), or the browser would put up its login dialog over the page's form.
     */
    static boolean challenge(String requestedWith) {
        return requestedWith == null;
    }

    /** As a JAX-RS answer with this status; a 503 (something lastcall needs is away) says when to try again. */
    public Response response(int status) {
        return builder(status).build();
    }

    /** As a JAX-RS answer; a 401 carries the Basic challenge unless the dashboard asked. */
    public Response response(int status, String requestedWith) {
        Response.ResponseBuilder answer = builder(status);
        return (status == 401 && challenge(requestedWith) ? answer.header("WWW-Authenticate", BASIC) : answer).build();
    }

    private Response.ResponseBuilder builder(int status) {
        Response.ResponseBuilder answer = Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(this);
        return status == 503 ? answer.header("Retry-After", RETRY_AFTER_SECONDS) : answer;
    }

    /**
     * Writes the refusal with its status, as {@link #response(int, String)} answers it: a 401
     * carries the Basic challenge unless the dashboard asked, a 503 says when to try again.
     */
    public void send(HttpServletRequest request, HttpServletResponse response, int status) throws IOException {
        if (status == 401 && challenge(request.getHeader("X-Requested-With"))) {
            response.setHeader("WWW-Authenticate", BASIC);
        }
        if (status == 503) {
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
        }
        JsonAnswer.write(response, status, this);
    }
}
