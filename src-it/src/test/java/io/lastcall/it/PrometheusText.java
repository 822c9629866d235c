package io.lastcall.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A scrape parsed by the Prometheus project's own text parser (the Python client's
 * {@code text_string_to_metric_families}, Debian's python3-prometheus-client, installed by
 * {@code ./lastcall services --test-tools}): what a stock Prometheus would read, not what we
 * think we wrote.
 */
public final class PrometheusText {

    /** One sample of a family. */
    public record Sample(String family, String type, String name, Map<String, String> labels, double value) {
    }

    private static final String PARSER = String.join("\n",
            "import sys, json",
            "from prometheus_client.parser import text_string_to_metric_families",
            "for family in text_string_to_metric_families(sys.stdin.read()):",
            "    for s in family.samples:",
            "        print(json.dumps({'family': family.name, 'type': family.type, 'name': s.name,",
            "                          'labels': s.labels, 'value': s.value}))");

    private PrometheusText() {
    }

    public static List<Sample> parse(String text) {
        try {
            Process python = new ProcessBuilder("/usr/bin/python3", "-c", PARSER).start();
            try (OutputStream in = python.getOutputStream()) {
                in.write(text.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(python.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!python.waitFor(60, TimeUnit.SECONDS) || python.exitValue() != 0) {
                throw new IllegalStateException("the Prometheus parser refused the scrape (or is not installed:"
                        + " ./lastcall services --test-tools): " + err);
            }
            return out.lines().map(PrometheusText::sample).toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run /usr/bin/python3: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Sample sample(String line) {
        try (JsonReader reader = Json.createReader(new StringReader(line))) {
            JsonObject o = reader.readObject();
            Map<String, String> labels = o.getJsonObject("labels").entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> ((jakarta.json.JsonString) e.getValue()).getString()));
            return new Sample(o.getString("family"), o.getString("type"), o.getString("name"), labels,
                    o.getJsonNumber("value").doubleValue());
        }
    }
}
