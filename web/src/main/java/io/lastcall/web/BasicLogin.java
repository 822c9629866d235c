package io.lastcall.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Authenticates HTTP Basic credentials against the server's realm with the standard
 * {@code HttpServletRequest.login} (the web.xml login-config names the realm); {@link RoleCheck}
 * then enforces each endpoint's roles. Wrong credentials → 401. There are deliberately no
 * container security constraints: Payara 6 answered 401 even for unprotected URLs after the
 * application was redeployed, and this works the same on every server. Declared in web.xml, on
 * /api/*, /metrics and /metrics/*, ahead of {@link JobSubmitFilter}.
 */
public class BasicLogin extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader("Authorization");
        // already logged in: the same request passing the filter again (e.g. /metrics → /metrics/)
        if (request.getUserPrincipal() != null || header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            chain.doFilter(request, response);
            return;
        }
        String[] credentials = decode(header.substring(6).trim());
        try {
            if (credentials == null) {
                throw new ServletException("malformed Basic credentials");
            }
            request.login(credentials[0], credentials[1]);
        } catch (ServletException wrong) {
            new Refusal("UNAUTHENTICATED", "unknown user or wrong password").send(request, response, 401);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            request.logout();
        }
    }

    private static String[] decode(String encoded) {
        try {
            String text = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            int colon = text.indexOf(':');
            return colon <= 0 ? null : new String[] {text.substring(0, colon), text.substring(colon + 1)};
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
