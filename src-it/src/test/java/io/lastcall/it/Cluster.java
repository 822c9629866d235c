package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The three-node RabbitMQ cluster the scale-out build started with
 * server/rabbitmq/lastcall-rabbitmq-cluster.sh ({@code lastcall.it.cluster-script}, data in
 * {@code lastcall.it.cluster-dir}).
 */
final class Cluster {

    private Cluster() {
    }

    /** The number of the node that leads quorum queue {@code queue}. */
    static int leader(String queue) {
        String[] lines = run("leader", queue).strip().split("\n");
        return Integer.parseInt(lines[lines.length - 1].strip());
    }

    static void stopNode(int node) {
        run("stop-node", Integer.toString(node));
    }

    static void startNode(int node) {
        run("start-node", Integer.toString(node));
    }

    private static String run(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("bash", System.getProperty("lastcall.it.cluster-script")));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("LC_CLUSTER_DIR", System.getProperty("lastcall.it.cluster-dir"));
        try {
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(180, TimeUnit.SECONDS), command + " within 3 minutes");
            assertEquals(0, process.exitValue(), command + ": " + out);
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
