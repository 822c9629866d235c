package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lastcall.it.PrometheusText.Sample;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * /lastcall/metrics after a completed and an expired job, parsed by the Prometheus text parser:
 * outcome counters by workload and reason, the latency histograms, permits and local waiting,
 * broker depths, money, each backend's declared limits — with bounded labels only — and the same
 * spend as /api/stats.
 */
@ExtendWith(ArquillianExtension.class)
class MetricsIT extends SpyBackedDeployment {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** tenant: the 50 with the most jobs in the last hour, the rest summed as "(others)" */
    private static final Set<String> BOUNDED_LABELS = Set.of("workload", "outcome", "reason", "state", "queue", "le",
            "backend", "tenant", "group");

    @Test
    void aScrapeParsesAndCarriesOutcomesLatenciesPermitsQueuesAndMoney() throws Exception {
        assertEquals(401, scrape(null).statusCode());
        assertEquals(403, scrape(ItConfig.user("submitter")).statusCode());

        List<String> completed = Jobs.occupyConsumers(spy, 0, 1_500);
        String expired = Jobs.newId("metrics-expired");
        Jobs.submit(Jobs.envelope(expired, Jobs.now() + 800, "spy-ok"));
        completed.forEach(id -> assertEquals("COMPLETED", Jobs.awaitOutcome(id, Duration.ofSeconds(30))
                .getString("outcome")));
        assertEquals("EXPIRED_NOT_STARTED", Jobs.awaitOutcome(expired, Duration.ofSeconds(30)).getString("outcome"));

        HttpResponse<String> response = scrape(ItConfig.user("viewer"));
        assertEquals(200, response.statusCode());
        String type = response.headers().firstValue("Content-Type").orElse("");
        assertTrue(type.startsWith("text/plain") && type.contains("version=0.0.4"), type);
        List<Sample> samples = PrometheusText.parse(response.body());
        Map<String, String> summary = Map.of("workload", "incident-summary");

        assertTrue(value(samples, "lastcall_jobs_ended_total", Map.of("workload", "incident-summary",
                "outcome", "COMPLETED", "reason", "ON_TIME")) >= 2, "the holders completed on time");
        assertTrue(samples.stream().anyMatch(s -> s.name().equals("lastcall_jobs_ended_total")
                && s.labels().get("outcome").equals("EXPIRED_NOT_STARTED") && s.value() >= 1), "an expiry counted");
        assertEquals("counter", family(samples, "lastcall_jobs_ended").type());

        for (String histogram : List.of("lastcall_queue_residence_seconds", "lastcall_consumer_residence_seconds",
                "lastcall_check_to_last_byte_seconds")) {
            assertEquals("histogram", family(samples, histogram).type(), histogram);
            assertTrue(value(samples, histogram + "_count", summary) >= 2, histogram + " has the holders' samples");
            assertTrue(samples.stream().filter(s -> s.name().equals(histogram + "_bucket")).count() >= 8,
                    histogram + " has fixed buckets");
        }
        assertEquals(2, value(samples, "lastcall_dispatch_permits", Map.of()), "LASTCALL_DISPATCH_PERMITS=2");
        assertEquals("gauge", family(samples, "lastcall_jobs_waiting_locally").type());
        assertEquals("gauge", family(samples, "lastcall_jobs_waiting_for_backend").type());
        assertTrue(samples.stream().anyMatch(s -> s.name().equals("lastcall_broker_messages_ready")
                && "it.lastcall.work.incident-summary".equals(s.labels().get("queue"))), "read from RabbitMQ");
        assertTrue(samples.stream().anyMatch(s -> s.name().equals("lastcall_consumer_unacknowledged")));

        double spend = value(samples, "lastcall_spend_total", summary);
        double statsSpend = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads")
                .getJsonObject("incident-summary").getJsonNumber("actual_spend").doubleValue();
        assertTrue(spend > 0);
        assertEquals(statsSpend, spend, 1e-9, "the same figure as /api/stats");
        assertTrue(value(samples, "lastcall_estimated_avoided_exposure", summary) > 0);
        assertEquals(1, value(samples, "lastcall_invariant_holds", summary));
        // per backend: it-limited's own (it-domain.env), declared at 60 requests a minute
        Map<String, String> limited = Map.of("backend", "http://127.0.0.1:14888/v1");
        assertEquals(60, value(samples, "lastcall_backend_requests_per_minute", limited));
        assertEquals(0, value(samples, "lastcall_backend_tokens_per_minute", limited));
        double left = value(samples, "lastcall_backend_requests_left", limited);
        assertTrue(left >= 0 && left <= 57, "at most 95 % of the minute's 60 left: " + left);
        assertTrue(samples.stream().noneMatch(s -> s.name().equals("lastcall_backend_tokens_left")
                && s.labels().equals(limited)), "no tokens left where no token limit is declared");
        assertEquals("gauge", family(samples, "lastcall_backend_paused_until_seconds").type());
        // the holders' answers are in this server's live latency window (with whatever else it answered in it)
        assertTrue(value(samples, "lastcall_backend_latency_p95_seconds", Map.of()) > 0,
                "the holders' latency: " + value(samples, "lastcall_backend_latency_p95_seconds", Map.of()));
        assertEquals("gauge", family(samples, "lastcall_backend_latency_p50_seconds").type());
        // predictive admission, as /api/stats counts it
        JsonObject admission = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads")
                .getJsonObject("incident-summary").getJsonObject("admission");
        assertEquals(admission.getJsonNumber("predicted_late").doubleValue(),
                value(samples, "lastcall_admission_predicted_late_total", summary));
        assertEquals(admission.getJsonNumber("false_refusals").doubleValue(),
                value(samples, "lastcall_admission_false_refusals_total", summary));
        assertEquals(admission.getJsonNumber("late_spend").doubleValue(),
                value(samples, "lastcall_late_spend_total", summary), 1e-9);
        for (String counter : List.of("lastcall_admission_refused_total", "lastcall_admission_refused_estimate_total")) {
            assertTrue(samples.stream().anyMatch(s -> s.name().equals(counter) && s.labels().equals(summary)), counter);
        }
        // per tenant: the holders and the expired job count as their submitting user's, in the last hour
        Map<String, String> submitter = Map.of("tenant", "submitter");
        assertTrue(value(samples, "lastcall_tenant_jobs_ended", submitter) >= completed.size() + 1);
        double share = value(samples, "lastcall_tenant_share", submitter);
        assertTrue(share > 0 && share <= 1, "the submitter's share of the calls: " + share);
        double onTime = value(samples, "lastcall_tenant_on_time_ratio", submitter);
        assertTrue(onTime > 0 && onTime < 1, "completed holders and an expiry: " + onTime);

        // group commit: the holders' handoffs and settlements and the single submissions here went through
        // groups, not alone
        assertEquals("summary", family(samples, "lastcall_group_size").type());
        assertTrue(value(samples, "lastcall_group_size_sum", Map.of("group", "handoff")) >= completed.size(),
                "handoffs committed in groups");
        assertTrue(value(samples, "lastcall_group_size_sum", Map.of("group", "settlement")) >= completed.size(),
                "settlements recorded in groups");
        assertTrue(value(samples, "lastcall_group_size_sum", Map.of("group", "submission")) >= completed.size() + 1,
                "single submissions stored in groups");

        Set<String> labels = samples.stream().filter(s -> s.name().startsWith("lastcall_"))
                .flatMap(s -> s.labels().keySet().stream()).collect(Collectors.toSet());
        assertTrue(BOUNDED_LABELS.containsAll(labels), "only bounded labels: " + labels);
        assertFalse(response.body().contains(expired), "no job id in any label");
    }

    private static HttpResponse<String> scrape(ItConfig.User user) throws IOException, InterruptedException {
        String root = ItConfig.baseUrl();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + "/metrics"))
                .timeout(Duration.ofSeconds(30));
        if (user != null) {
            request.header("Authorization", user.basic());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Sample family(List<Sample> samples, String family) {
        return samples.stream().filter(s -> s.family().equals(family)).findFirst()
                .orElseThrow(() -> new AssertionError("no family " + family));
    }

    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name)
                && s.labels().entrySet().containsAll(labels.entrySet())).mapToDouble(Sample::value).sum();
    }
}
