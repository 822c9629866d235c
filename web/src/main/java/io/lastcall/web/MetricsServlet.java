package io.lastcall.web;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * {@code GET /lastcall/metrics}: the Prometheus text exposition (format 0.0.4) — outcomes,
 * latency histograms, permits, queue depths, money; labels workload, outcome, reason, state and
 * queue only. A stock Prometheus scrapes it with {@code basic_auth} in its scrape config; viewers
 * and operators may. A servlet rather than a second JAX-RS application: a web module with several
 * of them is outside the JAX-RS specification, and WildFly's OpenAPI document then filed every
 * path under one of them.
 */
@WebServlet({"/metrics", "/metrics/"})
public class MetricsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    @Inject
    transient MetricsPage metrics;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<Refused> denied = Roles.deny(request.getUserPrincipal(), request::isUserInRole,
                Roles.VIEWER, Roles.OPERATOR);
        if (denied.isPresent()) {
            denied.get().send(request, response);
            return;
        }
        response.setContentType(PROMETHEUS_TEXT);
        response.getWriter().write(metrics.scrape());
    }
}
