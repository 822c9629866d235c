package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.rabbitmq.client.AMQP;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A live fuzz of what producers and the broker can send: 2,000 generated envelopes through
 * {@code POST /api/jobs} and 2,000 raw messages with random bodies and properties on the work
 * and dead-letter queues. No answer is a 5xx; every envelope is a job or a refusal with a reason;
 * every raw message is a quarantine row with a reason; the consumers stay connected and a fresh
 * job still completes. Seeded ({@code -Dlastcall.it.fuzz-seed=N} replays a run). It runs where
 * the build sets {@code lastcall.it.fuzz} (once per suite, on Payara and PostgreSQL), to keep the
 * suite's time; the property tests of the validator and the parser run in the unit tests.
 */
@ExtendWith(ArquillianExtension.class)
class FuzzIT extends SpyBackedDeployment {

    private static final int ENVELOPES = 2_000;
    private static final int RAW_PER_QUEUE = 1_000;
    private static final String DEAD_LETTER_QUEUE = "it.lastcall.dead";
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void nothingAProducerSendsIsLostOrAServerError() throws Exception {
        assumeTrue(Boolean.getBoolean("lastcall.it.fuzz"), "the live fuzz runs once per suite (lastcall.it.fuzz)");
        long seed = Long.getLong("lastcall.it.fuzz-seed", System.nanoTime());
        System.out.println("FuzzIT seed " + seed + " (-Dlastcall.it.fuzz-seed=" + seed + " replays it)");
        Random random = new Random(seed);
        String run = "fz" + Long.toHexString(seed & 0xffffffL);

        List<String> envelopes = new ArrayList<>();
        for (int i = 0; i < ENVELOPES; i++) {
            // every 100th nests its payload beyond the JSON parser's depth limit
            envelopes.add(i % 100 == 99 ? deeplyNested(run + "-" + i) : envelope(random, run + "-" + i).toString());
        }
        List<Api.Reply> replies = submitAll(envelopes);
        Set<String> accepted = new HashSet<>();
        for (int i = 0; i < ENVELOPES; i++) {
            Api.Reply reply = replies.get(i);
            String why = "envelope " + i + " " + abbreviate(envelopes.get(i)) + " -> " + reply;
            assertTrue(reply.status() < 500, "never a server error: " + why);
            JsonObject body = reply.json() instanceof JsonObject o ? o : null;
            assertNotNull(body, "a JSON answer: " + why);
            if (reply.status() / 100 == 2) {
                accepted.add(body.getString("job_id"));
            } else {
                assertTrue(body.containsKey("reason") && !body.getString("reason").isBlank(), "a reason: " + why);
            }
        }
        for (String jobId : accepted) {
            assertNotNull(Jobs.get(jobId), "an accepted envelope is a job: " + jobId);
        }

        Map<String, String> raw = new HashMap<>();
        publishRaw(random, ItConfig.workerQueue(), run + "-work", raw);
        publishRaw(random, DEAD_LETTER_QUEUE, run + "-dead", raw);
        for (String queue : List.of(ItConfig.workerQueue(), DEAD_LETTER_QUEUE)) {
            Await.until(queue + " drained", WAIT, () -> Broker.counts(queue), c -> c.ready() == 0 && c.unacked() == 0);
        }
        Map<String, String> quarantined = new HashMap<>();
        for (JsonValue row : Api.get("/api/quarantine?limit=10000").json().asJsonArray()) {
            JsonObject q = row.asJsonObject();
            if (!q.isNull("message_id")) {
                // the JMS form of the AMQP message id: "ID:" + message-id
                String id = q.getString("message_id");
                quarantined.put(id.startsWith("ID:") ? id.substring(3) : id, q.isNull("reason") ? "" : q.getString("reason"));
            }
        }
        List<String> missing = raw.keySet().stream().filter(id -> quarantined.getOrDefault(id, "").isBlank())
                .map(id -> id + " on " + raw.get(id)).sorted().toList();
        assertEquals(List.of(), missing.subList(0, Math.min(20, missing.size())),
                missing.size() + " raw messages are not in the quarantine with a reason");

        Api.Reply health = Api.get("/api/health");
        assertEquals(200, health.status(), health.toString());
        for (JsonValue consumer : health.json().asJsonObject().getJsonObject("broker").getJsonArray("consumers")) {
            JsonObject c = consumer.asJsonObject();
            assertEquals(c.getInt("consumers_configured"), c.getInt("consumers_connected"), c.toString());
        }
        String fresh = Jobs.newId(run + "-fresh");
        assertEquals(201, Jobs.submit(Jobs.envelope(fresh, Jobs.now() + 120_000, "spy-ok")).status());
        assertEquals("COMPLETED", Jobs.awaitOutcome(fresh, WAIT).getString("outcome"));
    }

    /** Four clients at once, answers in submission order. */
    private static List<Api.Reply> submitAll(List<String> bodies) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<Api.Reply>> answers = new ArrayList<>();
            for (String body : bodies) {
                answers.add(clients.submit(() -> Jobs.post(body)));
            }
            List<Api.Reply> replies = new ArrayList<>();
            for (Future<Api.Reply> answer : answers) {
                replies.add(answer.get());
            }
            return replies;
        } finally {
            clients.shutdownNow();
        }
    }

    /** A valid envelope with each field kept (mostly), replaced by arbitrary JSON, or removed. */
    private static JsonObject envelope(Random random, String jobId) {
        JsonObject valid = Jobs.envelope(jobId, Jobs.now() + 60_000 + random.nextInt(600_000), "spy-ok").build();
        JsonObjectBuilder fuzzed = Json.createObjectBuilder();
        valid.forEach((field, value) -> {
            int dice = random.nextInt(16);
            if (dice == 0) {
                return;
            }
            if (dice == 1) {
                fuzzed.add(field, json(random, 4));
            } else if (dice == 2 && value instanceof JsonObject payload) {
                JsonObjectBuilder p = Json.createObjectBuilder();
                payload.forEach((k, v) -> p.add(k, random.nextInt(3) == 0 ? json(random, 3) : v));
                fuzzed.add(field, p);
            } else {
                fuzzed.add(field, value);
            }
        });
        if (random.nextInt(10) == 0) {
            fuzzed.add(text(random, 12), json(random, 3));
        }
        return fuzzed.build();
    }

    private static String deeplyNested(String jobId) {
        String valid = Jobs.envelope(jobId, Jobs.now() + 60_000, "spy-ok").build().toString();
        return valid.substring(0, valid.length() - 1) + ",\"deep\":" + "[".repeat(3_000) + "]".repeat(3_000) + "}";
    }

    /** Publishes {@link #RAW_PER_QUEUE} messages with random bodies and properties, with confirms. */
    private static void publishRaw(Random random, String queue, String prefix, Map<String, String> published) {
        Broker.withChannel(channel -> {
            channel.confirmSelect();
            for (int i = 0; i < RAW_PER_QUEUE; i++) {
                String id = prefix + "-" + i;
                Map<String, Object> headers = new HashMap<>();
                for (int h = random.nextInt(4); h > 0; h--) {
                    headers.put(random.nextBoolean() ? text(random, 10) : "x-death",
                            random.nextBoolean() ? text(random, 30) : (Object) random.nextLong());
                }
                AMQP.BasicProperties.Builder props = new AMQP.BasicProperties.Builder().messageId(id)
                        .headers(headers).deliveryMode(1 + random.nextInt(2));
                if (random.nextBoolean()) {
                    props.contentType(List.of("text/plain", "application/json", "application/octet-stream",
                            "x/" + text(random, 8)).get(random.nextInt(4)));
                }
                if (random.nextInt(4) == 0) {
                    props.priority(random.nextInt(10)).type(text(random, 20)).correlationId(text(random, 20))
                            .timestamp(new java.util.Date(random.nextLong() & 0xffffffffffL));
                }
                if (!queue.equals(DEAD_LETTER_QUEUE) && random.nextInt(10) == 0) {
                    // expired on a work queue, it is dead-lettered (the dead-letter queue itself has no
                    // dead-letter exchange: a message expiring there would be dropped by the broker)
                    props.expiration(String.valueOf(random.nextInt(50)));
                }
                channel.basicPublish("", queue, props.build(), body(random));
                published.put(id, queue);
            }
            try {
                channel.waitForConfirmsOrDie(30_000);
            } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
                throw new java.io.IOException("raw messages to " + queue + " not confirmed", e);
            }
            return null;
        });
    }

    /** Random bytes, random JSON, or a reference-shaped object with fuzzed fields. */
    private static byte[] body(Random random) {
        switch (random.nextInt(4)) {
            case 0 -> {
                byte[] bytes = new byte[random.nextInt(300)];
                random.nextBytes(bytes);
                return bytes;
            }
            case 1 -> {
                return json(random, 5).toString().getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                JsonObjectBuilder reference = Json.createObjectBuilder()
                        .add("job_id", random.nextBoolean() ? Json.createValue("fz-" + random.nextInt(1000)) : json(random, 2))
                        .add("generation", random.nextBoolean() ? Json.createValue(random.nextInt(3)) : json(random, 2))
                        .add("expires_at", random.nextBoolean() ? Json.createValue(Jobs.now() + random.nextInt(100_000))
                                : json(random, 2))
                        .add("schema_version", random.nextBoolean() ? Json.createValue(1) : json(random, 2));
                String text = reference.build().toString();
                return (random.nextInt(5) == 0 ? text.substring(0, random.nextInt(text.length())) : text)
                        .getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    private static JsonValue json(Random random, int depth) {
        int kind = random.nextInt(depth <= 0 ? 6 : 8);
        return switch (kind) {
            case 0 -> JsonValue.NULL;
            case 1 -> random.nextBoolean() ? JsonValue.TRUE : JsonValue.FALSE;
            case 2 -> Json.createValue(random.nextLong());
            case 3 -> Json.createValue(new BigDecimal(List.of("1e400", "-0.5", "99999999999999999999999",
                    "3.141592653589793238462643383279", "0").get(random.nextInt(5))));
            case 4, 5 -> Json.createValue(text(random, random.nextInt(10) == 0 ? 20_000 : 40));
            case 6 -> {
                JsonArrayBuilder array = Json.createArrayBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(json(random, depth - 1));
                }
                yield array.build();
            }
            default -> {
                JsonObjectBuilder object = Json.createObjectBuilder();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.add(text(random, 8), json(random, depth - 1));
                }
                yield object.build();
            }
        };
    }

    /** Up to {@code max} characters from all of Unicode's basic plane, control characters and lone surrogates too. */
    private static String text(Random random, int max) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(max + 1); i > 0; i--) {
            s.append((char) (random.nextInt(4) == 0 ? random.nextInt(0x10000) : 0x20 + random.nextInt(0x5f)));
        }
        return s.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }
}
