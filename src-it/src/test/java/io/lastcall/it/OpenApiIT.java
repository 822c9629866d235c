package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server's OpenAPI document (/openapi) describes every lastcall API endpoint at its own path,
 * the same on Payara and WildFly, with its roles (the scopes of its Basic security requirement: the
 * declaration RoleCheck enforces, and SecurityIT checks), 401 and 403, and a submission's reason
 * codes. (/metrics, a Prometheus endpoint, and the simulated model are servlets outside it.)
 */
@ExtendWith(ArquillianExtension.class)
class OpenApiIT extends SpyBackedDeployment {

    @Test
    void everyEndpointIsDescribedWithItsRolesAndReasonCodes() {
        Api.Reply reply = Api.serverGet("/openapi?format=JSON");
        assertEquals(200, reply.status(), String.valueOf(reply.json()));
        JsonObject doc = reply.json().asJsonObject();
        assertEquals("basic", doc.getJsonObject("components").getJsonObject("securitySchemes")
                .getJsonObject("basic").getString("scheme"));
        JsonObject paths = relativeToTheApplication(doc.getJsonObject("paths"));

        assertEquals(Set.of("submitter"), roles(paths, "/api/jobs", "post"));
        assertEquals(Set.of("submitter", "viewer", "operator"), roles(paths, "/api/jobs/{id}", "get"));
        assertEquals(Set.of("submitter", "operator"), roles(paths, "/api/jobs/{id}/cancel", "post"));
        assertEquals(Set.of("operator"), roles(paths, "/api/reconcile", "post"));
        assertEquals(Set.of("viewer", "operator"), roles(paths, "/api/stats", "get"));
        assertFalse(paths.keySet().stream().anyMatch(p -> !p.startsWith("/api/")),
                "every path is the API's, where it is served: " + paths.keySet());

        List<String> undescribed = new ArrayList<>();
        paths.forEach((path, item) -> {
            item.asJsonObject().forEach((method, operation) -> {
                JsonObject op = operation.asJsonObject();
                if (!op.containsKey("security") || !op.getJsonObject("responses").containsKey("401")
                        || !op.getJsonObject("responses").containsKey("403")) {
                    undescribed.add(method + " " + path);
                }
            });
        });
        assertEquals(List.of(), undescribed, "every /api operation names its roles, 401 and 403");
        assertTrue(paths.size() >= 14, "every endpoint: " + paths.keySet());

        JsonObject submit = paths.getJsonObject("/api/jobs").getJsonObject("post").getJsonObject("responses");
        assertTrue(submit.getJsonObject("409").getString("description").contains("JOB_ID_TAKEN"));
        assertTrue(submit.getJsonObject("422").getString("description").contains("PAYLOAD_NOT_ACCOUNTABLE"));
        assertTrue(submit.getJsonObject("413").getString("description").contains("BODY_TOO_LARGE"));
    }

    /**
     * Payara names the paths relative to the application (its servers entry carries /lastcall),
     * WildFly from the server's root (/lastcall/api/...): compared relative to the application.
     */
    private static JsonObject relativeToTheApplication(JsonObject paths) {
        String contextRoot = URI.create(ItConfig.baseUrl()).getPath();
        JsonObjectBuilder relative = Json.createObjectBuilder();
        paths.forEach((path, item) -> relative.add(path.startsWith(contextRoot + "/")
                ? path.substring(contextRoot.length()) : path, item));
        return relative.build();
    }

    private static Set<String> roles(JsonObject paths, String path, String method) {
        JsonObject item = paths.getJsonObject(path);
        if (item == null || !item.containsKey(method)) {
            throw new AssertionError("no " + method + " " + path + " in " + paths.keySet());
        }
        return item.getJsonObject(method).getJsonArray("security").getJsonObject(0).getJsonArray("basic")
                .getValuesAs(JsonString.class).stream().map(JsonString::getString).collect(Collectors.toSet());
    }
}
