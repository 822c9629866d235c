package io.lastcall.web;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A servlet-path answer as JSON-B writes it (the JAX-RS answers' binding), UTF-8. */
final class JsonAnswer {

    // created on first use, so that classes that only may answer load without a JSON-B implementation
    private static final class Binding {
        static final Jsonb JSONB = JsonbBuilder.create();
    }

    private JsonAnswer() {
    }

    static void write(HttpServletResponse response, int status, Object body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Binding.JSONB.toJson(body));
    }
}
