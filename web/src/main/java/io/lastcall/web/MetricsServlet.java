package io.lastcall.web;

import io.lastcall.metrics.LastcallMetrics;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /lastcall/metrics}: the Prometheus text exposition (format 0.0.4) for viewers and
 * operators, authenticated by {@link BasicLogin} like the API. A stock Prometheus scrapes it with
 * {@code basic_auth} in its scrape config.
 */
@WebServlet("/metrics")
public class MetricsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient LastcallMetrics metrics;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getUserPrincipal() == null) {
            new Refusal("UNAUTHENTICATED", "HTTP Basic credentials of a lastcall user are required")
                    .send(request, response, 401);
            return;
        }
        if (!request.isUserInRole(Roles.VIEWER) && !request.isUserInRole(Roles.OPERATOR)) {
            new Refusal("FORBIDDEN", "user " + request.getUserPrincipal().getName()
                    + " lacks the role this needs: viewer or operator").send(request, response, 403);
            return;
        }
        String text = metrics.scrape();
        response.setContentType("text/plain; version=0.0.4; charset=utf-8");
        response.getWriter().write(text);
    }
}
