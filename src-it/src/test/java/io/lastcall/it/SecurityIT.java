package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.Api.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Roles on every endpoint (docs/operating.md, "Users and roles"): without credentials 401, with a role the
 * endpoint does not allow 403, with one it allows neither; a submitter sees and cancels only its
 * own jobs; POSTs take only application/json; the simulated model is off unless enabled.
 */
@ExtendWith(ArquillianExtension.class)
class SecurityIT extends SpyBackedDeployment {

    private static final List<String> ROLES = List.of("submitter", "operator", "viewer");

    /** One endpoint and the roles that may call it. */
    private record Endpoint(String method, String path, String body, Set<String> allowed) {
    }

    private static List<Endpoint> endpoints(String jobId) {
        String job = Jobs.envelope(Jobs.newId("sec"), Jobs.now() + 60_000, "spy-ok").build().toString();
        return List.of(
                new Endpoint("POST", "/api/jobs", job, Set.of("submitter")),
                new Endpoint("POST", "/api/jobs/batch", "{\"jobs\":[" + Jobs.envelope(Jobs.newId("sec-batch"),
                        Jobs.now() + 60_000, "spy-ok").build() + "]}", Set.of("submitter")),
                new Endpoint("GET", "/api/jobs/" + jobId, null, Set.of("submitter", "operator", "viewer")),
                new Endpoint("POST", "/api/jobs/" + jobId + "/cancel", "", Set.of("submitter", "operator")),
                new Endpoint("POST", "/api/subjects/SEC-1/revisions", "{\"source_revision\":\"r1\"}", Set.of("operator")),
                new Endpoint("GET", "/api/stats", null, Set.of("operator", "viewer")),
                new Endpoint("POST", "/api/reconcile", "", Set.of("operator")),
                new Endpoint("GET", "/api/quarantine?limit=1", null, Set.of("operator", "viewer")),
                new Endpoint("GET", "/api/deliveries?limit=1", null, Set.of("operator", "viewer")),
                new Endpoint("GET", "/api/config", null, Set.of("operator", "viewer")),
                new Endpoint("GET", "/api/jobs?limit=1", null, Set.of("submitter", "operator", "viewer")),
                new Endpoint("GET", "/api/jobs/export?format=csv&limit=1&from=" + Jobs.now(), null,
                        Set.of("operator", "viewer")),
                new Endpoint("GET", "/api/health", null, Set.of("submitter", "operator", "viewer")),
                new Endpoint("GET", "/api/me", null, Set.of("submitter", "operator", "viewer")),
                new Endpoint("GET", "/api/stats/timeline?minutes=5", null, Set.of("operator", "viewer")),
                new Endpoint("GET", "/metrics", null, Set.of("operator", "viewer")));
    }

    @Test
    void everyEndpointAnswers401WithoutCredentials403ForAnotherRoleAndServesItsRoles() {
        String id = Jobs.newId("sec-target");
        assertEquals(201, Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok")).status());
        List<String> wrong = new ArrayList<>();
        for (Endpoint e : endpoints(id)) {
            check(wrong, e, "anonymous", Api.send(e.method(), e.path(), e.body(), null).status(), 401);
            for (String role : ROLES) {
                int status = Api.send(e.method(), e.path(), e.body(), ItConfig.user(role)).status();
                if (e.allowed().contains(role)) {
                    if (status == 401 || status == 403) {
                        wrong.add(e.method() + " " + e.path() + " as " + role + " -> " + status + ", expected allowed");
                    }
                } else {
                    check(wrong, e, role, status, 403);
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    private static void check(List<String> wrong, Endpoint e, String who, int status, int expected) {
        if (status != expected) {
            wrong.add(e.method() + " " + e.path() + " as " + who + " -> " + status + ", expected " + expected);
        }
    }

    @Test
    void aSubmitterSeesAndCancelsOnlyItsOwnJobs() {
        Jobs.occupyConsumers(spy, 0, 4_000);
        String id = Jobs.newId("mine");
        assertEquals(201, Jobs.submit(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok")).status());
        ItConfig.User other = ItConfig.user("submitter2");

        assertEquals(404, Api.send("GET", "/api/jobs/" + id, null, other).status(), "another's job is unknown");
        assertEquals(404, Api.send("POST", "/api/jobs/" + id + "/cancel", "", other).status());
        Reply squat = Api.send("POST", "/api/jobs", Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok").build()
                .toString(), other);
        assertEquals(409, squat.status(), squat.json().toString());
        assertEquals("JOB_ID_TAKEN", squat.json().asJsonObject().getString("reason"));
        assertFalse(squat.json().toString().contains("\"state\""), "nothing of the other's job is shown");

        assertEquals(200, Api.send("GET", "/api/jobs/" + id, null, ItConfig.user("submitter")).status());
        assertEquals(200, Api.send("GET", "/api/jobs/" + id, null, ItConfig.user("viewer")).status());
        Reply cancel = Api.send("POST", "/api/jobs/" + id + "/cancel", "", ItConfig.user("submitter"));
        assertEquals(200, cancel.status(), cancel.json().toString());
        assertEquals("CANCELED", Jobs.get(id).getString("outcome"));
        assertEquals(List.of(), spy.requestsFor(id));
    }

    @Test
    void postsTakeOnlyJsonSoNoCrossSiteFormCanSubmitOrCancel() throws Exception {
        String id = Jobs.newId("form");
        HttpResponse<String> form = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(ItConfig.baseUrl() + "/api/jobs")).timeout(Duration.ofSeconds(30))
                .header("Authorization", ItConfig.user("submitter").basic())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(Jobs.envelope(id, Jobs.now() + 60_000, "spy-ok").build()
                        .toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(415, form.statusCode(), form.body());
        assertEquals(null, Jobs.get(id), "nothing persisted");
    }

    @Test
    void theEffectiveConfigurationNamesEachSourceAndMasksSecrets() {
        Reply config = Api.send("GET", "/api/config", null, ItConfig.user("viewer"));
        assertEquals(200, config.status());
        java.util.Map<String, jakarta.json.JsonObject> byName = config.json().asJsonArray().stream()
                .map(jakarta.json.JsonValue::asJsonObject)
                .collect(java.util.stream.Collectors.toMap(s -> s.getString("name"), s -> s));
        jakarta.json.JsonObject permits = byName.get("LASTCALL_DISPATCH_PERMITS");
        assertEquals("2", permits.getString("value"), config.json().toString());
        assertFalse(permits.isNull("source"));
        assertEquals("****", byName.get("LASTCALL_MODEL_API_KEY").getString("value"), "never shown");
        assertFalse(config.json().toString().contains("it-model-key"));
        assertFalse(byName.containsKey("LASTCALL_OPERATOR_PASSWORD"), "users' passwords never reach the server");
        assertFalse(config.json().toString().contains(ItConfig.user("operator").password()));
    }

    @Test
    void theSimulatedModelIsOffUnlessEnabled() {
        Reply simulated = Api.send("POST", "/simulated-model/v1/chat/completions",
                "{\"model\":\"sim\",\"messages\":[]}", null);
        assertEquals(404, simulated.status(), "the test domain does not set lastcall.simulator.enabled: " + simulated.json());
    }

    @Test
    void theDomainsAdministrationTakesNoCommandWithoutItsPassword() {
        Assumptions.assumeFalse(Server.wildfly(), "Payara's domain admin user (WildFly's management takes local users only)");
        assertFalse(Server.asadminWithoutPassword("list-applications"), "asadmin as admin without a password");
        assertTrue(Server.asadmin(false, "list-applications").contains("lastcall"), "with it, the same command works");
    }
}
