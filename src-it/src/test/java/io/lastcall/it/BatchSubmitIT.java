package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lastcall.it.Api.Reply;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * POST /api/jobs/batch: mixed valid, invalid and repeated envelopes get one result each, with the
 * status and reason a single submission would get; only the valid new ones are persisted,
 * published and called, each once.
 */
@ExtendWith(ArquillianExtension.class)
class BatchSubmitIT extends SpyBackedDeployment {

    @Test
    void mixedItemsGetPerItemResultsAndOnlyTheValidOnesRun() {
        String a = Jobs.newId("batch-a");
        String b = Jobs.newId("batch-b");
        String existing = Jobs.newId("batch-existing");
        String noWorkload = Jobs.newId("batch-noworkload");
        String streamed = Jobs.newId("batch-stream");
        long expiresAt = Jobs.now() + 60_000;
        assertEquals(201, Jobs.submit(Jobs.envelope(existing, expiresAt, "spy-ok")).status());

        JsonArrayBuilder jobs = Json.createArrayBuilder()
                .add(Jobs.envelope(a, expiresAt, "spy-ok"))
                .add(Jobs.envelope(noWorkload, expiresAt, "spy-ok").remove("workload"))
                .add(Jobs.envelope(b, expiresAt, "spy-ok"))
                .add(Jobs.envelope(a, expiresAt, "spy-ok"))
                .add(Jobs.envelope(existing, expiresAt, "spy-ok"))
                .add(42)
                .add(Jobs.envelope(streamed, expiresAt, "spy-ok").add("payload", Json.createObjectBuilder()
                        .add("model", "spy-ok").add("stream", true).add("max_tokens", 8)
                        .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                .add("role", "user").add("content", "hi")))))
                // the id of a refused item again, now valid: it gets the first occurrence's answer
                .add(Jobs.envelope(noWorkload, expiresAt, "spy-ok"));
        Reply reply = Api.send("POST", "/api/jobs/batch", Json.createObjectBuilder().add("jobs", jobs).build()
                .toString(), ItConfig.user("submitter"));
        assertEquals(200, reply.status(), String.valueOf(reply.json()));
        JsonObject body = reply.json().asJsonObject();
        List<String> results = body.getJsonArray("results").stream().map(v -> v.asJsonObject())
                .map(o -> o.getInt("index") + ":" + o.getInt("status") + ":" + o.getString("reason", "-")).toList();
        assertEquals(List.of("0:201:-", "1:400:WORKLOAD_MISSING", "2:201:-", "3:200:-", "4:200:-",
                "5:400:BODY_MALFORMED", "6:422:PAYLOAD_NOT_ACCOUNTABLE", "7:400:WORKLOAD_MISSING"), results);
        assertEquals(2, body.getInt("accepted"));
        assertEquals(2, body.getInt("repeated"));
        assertEquals(4, body.getInt("refused"));

        for (String id : List.of(a, b, existing)) {
            assertEquals("COMPLETED", Jobs.awaitOutcome(id, Duration.ofSeconds(30)).getString("outcome"), id);
            assertEquals(1, spy.requestsFor(id).size(), id + " called once");
        }
        assertNull(Jobs.get(noWorkload), "an invalid item is not persisted");
        assertNull(Jobs.get(streamed), "an unaccountable item is not persisted");
        assertEquals(List.of(), spy.requestsFor(streamed));

        JsonArrayBuilder tooMany = Json.createArrayBuilder();
        for (int i = 0; i < 1_001; i++) {
            tooMany.add(Json.createObjectBuilder());
        }
        Reply refused = Api.send("POST", "/api/jobs/batch", Json.createObjectBuilder().add("jobs", tooMany).build()
                .toString(), ItConfig.user("submitter"));
        assertEquals(400, refused.status());
        assertEquals("BATCH_INVALID", refused.json().asJsonObject().getString("reason"));
        assertEquals(403, Api.send("POST", "/api/jobs/batch", "{\"jobs\":[]}", ItConfig.user("viewer")).status());
    }

    /**
     * The tenant (whose fair share of the window a job counts in) is the submitting user, unless
     * the workload lets the envelope name it (it-short: tenant-from-envelope=true in it-domain.env).
     */
    @Test
    void theTenantIsTheSubmittingUserUnlessTheWorkloadLetsTheEnvelopeNameIt() {
        String own = Jobs.newId("tenant-own");
        String named = Jobs.newId("tenant-named");
        long expiresAt = Jobs.now() + 60_000;
        JsonArrayBuilder jobs = Json.createArrayBuilder()
                .add(Jobs.envelope(own, expiresAt, "spy-ok"))
                .add(Jobs.envelope(Jobs.newId("tenant-refused"), expiresAt, "spy-ok").add("tenant", "acme"))
                .add(Jobs.envelope(named, expiresAt, "spy-ok").add("workload", "it-short").add("tenant", "acme"))
                .add(Jobs.envelope(Jobs.newId("tenant-blank"), expiresAt, "spy-ok").add("workload", "it-short")
                        .add("tenant", " "));
        Reply reply = Api.send("POST", "/api/jobs/batch", Json.createObjectBuilder().add("jobs", jobs).build()
                .toString(), ItConfig.user("submitter"));
        assertEquals(200, reply.status(), String.valueOf(reply.json()));
        List<String> results = reply.json().asJsonObject().getJsonArray("results").stream().map(v -> v.asJsonObject())
                .map(o -> o.getInt("index") + ":" + o.getInt("status") + ":" + o.getString("reason", "-")).toList();
        assertEquals(List.of("0:201:-", "1:422:TENANT_NOT_ALLOWED", "2:201:-", "3:400:TENANT_INVALID"), results);

        assertEquals("submitter", Jobs.awaitOutcome(own, Duration.ofSeconds(30)).getString("tenant"));
        assertEquals("acme", Jobs.awaitOutcome(named, Duration.ofSeconds(30)).getString("tenant"));
        assertEquals(1, spy.requestsFor(named).size(), "the named tenant's job ran like any other");
    }
}
