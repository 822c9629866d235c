package io.lastcall.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Submitting jobs and reading them back through the real REST API. */
public final class Jobs {


    private Jobs() {
    }

    public static String newId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** An envelope for workload incident-summary, LATEST_START, that a test then adjusts. */
    public static JsonObjectBuilder envelope(String jobId, long expiresAt, String model) {
        return Json.createObjectBuilder()
                .add("job_id", jobId).add("workload", "incident-summary").add("schema_version", 1)
                .add("expires_at", expiresAt).add("deadline_semantics", "LATEST_START").add("min_execution_ms", 0)
                .add("subject", "INC-" + jobId).add("source_revision", "r1")
                .add("payload", Json.createObjectBuilder().add("model", model).add("max_tokens", 64)
                        .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                .add("role", "user").add("content", "summarize the incident"))));
    }

    public static Api.Reply submit(JsonObjectBuilder envelope) {
        return post(envelope.build().toString());
    }

    public static Api.Reply post(String body) {
        return post("/api/jobs", body);
    }

    public static Api.Reply cancel(String jobId) {
        return post("/api/jobs/" + jobId + "/cancel", "");
    }

    /** POST /api/reconcile: one reconciler pass and its report. */
    public static JsonObject reconcile() {
        return post("/api/reconcile", "").json().asJsonObject();
    }

    /** POST as the submitter to /api/jobs, as the operator anywhere else. */
    public static Api.Reply post(String path, String body) {
        return Api.send("POST", path, body, ItConfig.user("/api/jobs".equals(path) ? "submitter" : "operator"));
    }

    /** The job view, or null for 404. */
    public static JsonObject get(String jobId) {
        Api.Reply reply = Api.get("/api/jobs/" + jobId);
        if (reply.status() == 404) {
            return null;
        }
        if (reply.status() != 200) {
            throw new IllegalStateException("GET /api/jobs/" + jobId + " -> " + reply.status() + ": " + reply.json());
        }
        return reply.json().asJsonObject();
    }

    /** Waits until the job has an outcome and returns its view. */
    public static JsonObject awaitOutcome(String jobId, Duration timeout) {
        return Await.until("an outcome for " + jobId, timeout, () -> get(jobId),
                j -> j != null && !j.isNull("outcome"));
    }

    /** Waits until no job is dispatching or waiting for a permit and the worker queues are empty. */
    public static void awaitIdle() {
        Await.until("the worker idle", Duration.ofSeconds(60), () -> {
            JsonObject dispatch = Api.get("/api/health").json().asJsonObject().getJsonObject("dispatch");
            Broker.QueueCounts queue = Broker.counts(ItConfig.workerQueue());
            return dispatch.getInt("in_use") + dispatch.getInt("waiting") + queue.ready() + queue.unacked();
        }, busy -> busy == 0);
    }

    /**
     * Keeps every worker consumer busy for about {@code holdMs}: calls hold every dispatch permit
     * (the spy answers after holdMs) and then one job per consumer waits for a permit (a handed-off
     * call no longer holds a consumer; the test domain runs 2 permits and 4 consumers of prefetch
     * 1). Leaves {@code free} consumers free.
     */
    public static List<String> occupyConsumers(DispatchSpy spy, int free, long holdMs) {
        return occupyConsumers(spy, free, holdMs, "incident-summary");
    }

    /** As {@link #occupyConsumers(DispatchSpy, int, long)}, with the holders and waiters of {@code workload}. */
    public static List<String> occupyConsumers(DispatchSpy spy, int free, long holdMs, String workload) {
        int permits = Integer.parseInt(ItConfig.domainSetting("LASTCALL_DISPATCH_PERMITS"));
        int consumers = Integer.parseInt(ItConfig.domainSetting("LASTCALL_WORKER_CONSUMERS"));
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < permits; i++) {
            String id = newId("holder");
            submit(envelope(id, now() + 60_000, "spy-delay-" + holdMs).add("workload", workload));
            ids.add(id);
        }
        Await.until("every permit held", Duration.ofSeconds(30), () -> ids.stream().allMatch(id ->
                spy.requestsFor(id).size() == 1), ok -> ok);
        // a handed-off call frees its consumer: the consumers are held by jobs waiting for a permit
        int waiters = consumers - free;
        for (int i = 0; i < waiters; i++) {
            String id = newId("waiter");
            submit(envelope(id, now() + 60_000, "spy-ok").add("workload", workload));
            ids.add(id);
        }
        Await.until(waiters + " waiting for a permit", Duration.ofSeconds(30), () -> Api.get("/api/health").json()
                .asJsonObject().getJsonObject("dispatch").getInt("waiting"), n -> n == waiters);
        return ids;
    }

    public static long now() {
        return System.currentTimeMillis();
    }
}
