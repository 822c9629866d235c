package io.lastcall.web;

import io.lastcall.ingress.JobIngress;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.policy.Settings;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code POST /api/jobs} with a JSON body, answered on the servlet path after {@link BasicLogin}
 * (web.xml orders the two) instead of through JAX-RS: a single submission then skips Jersey's or
 * RESTEasy's matching, injection and request scope, about a third of its CPU on the HTTP threads
 * by a profile (docs/performance.md). The answers are {@link JobsResource#submit}'s, through
 * {@link SingleSubmission}, and the role rule is {@link Roles#deny}'s with that method's roles; any other request (another
 * method, another content type: 415 from JAX-RS) goes on to JAX-RS, which also documents the
 * endpoint in the OpenAPI document.
 */
public class JobSubmitFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    /** Who may submit: {@link JobsResource#submit}'s security scopes, the one place they are declared. */
    private static final String[] SUBMIT_ROLES = submitRoles();

    @EJB
    transient JobIngress ingress;

    @EJB
    transient LedgerQueries queries;

    @Inject
    transient Settings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!"POST".equals(request.getMethod()) || !json(request.getContentType())) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Refused> denied = Roles.deny(request.getUserPrincipal(), request::isUserInRole, SUBMIT_ROLES);
        if (denied.isPresent()) {
            denied.get().send(request, response);
            return;
        }
        SingleSubmission.Answer answer;
        try {
            answer = SingleSubmission.answer(request.getInputStream(), settings.ingress().maxBodyBytes(),
                    request.getUserPrincipal().getName(), ingress, queries);
        } catch (RuntimeException e) {
            FailureMapper.failure(e).send(request, response);
            return;
        }
        if (answer.body() instanceof Refusal refusal) {
            refusal.send(request, response, answer.status()); // with its headers (a 503's Retry-After)
            return;
        }
        JsonAnswer.write(response, answer.status(), answer.body());
    }

    static String[] submitRoles() {
        try {
            return Roles.allowed(JobsResource.class.getMethod("submit", InputStream.class), JobsResource.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("JobsResource.submit(InputStream) is gone: the filter cannot know its roles", e);
        }
    }

    /** application/json, with or without parameters (charset): what JAX-RS's @Consumes takes. */
    static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT)
                .equals("application/json");
    }
}
