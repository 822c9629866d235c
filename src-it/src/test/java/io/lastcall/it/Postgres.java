package io.lastcall.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The real PostgreSQL on 127.0.0.1:5432 (Debian's cluster "main"): restarted by a test, queried with psql. */
public final class Postgres {

    private Postgres() {
    }

    private static String version() {
        try (Stream<Path> versions = Files.list(Path.of("/etc/postgresql"))) {
            return versions.map(p -> p.getFileName().toString()).max(String::compareTo)
                    .orElseThrow(() -> new IllegalStateException("no cluster under /etc/postgresql"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /etc/postgresql: " + e, e);
        }
    }

    /** pg_ctlcluster VERSION main ACTION (start, stop, restart, status). */
    public static String cluster(String action) {
        return run(List.of("pg_ctlcluster", "--skip-systemctl-redirect", version(), "main", action), true);
    }

    /** Starts the cluster unless it runs: for a finally, so no test leaves it stopped. */
    public static void ensureRunning() {
        if (!run(List.of("pg_ctlcluster", "--skip-systemctl-redirect", version(), "main", "status"), false)
                .contains("server is running")) {
            cluster("start");
        }
    }

    /** One SQL statement on the test ledger database, as its owner. */
    public static String sql(String statement) {
        return run(List.of("psql", "-h", "127.0.0.1", "-U", "lastcall", "-d", "lastcall_it", "-qtA",
                "-v", "ON_ERROR_STOP=1", "-c", statement), true);
    }

    private static String run(List<String> command, boolean mustSucceed) {
        try {
            ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
            builder.environment().put("PGPASSWORD", "lastcall");
            Process process = builder.start();
            String out;
            try (InputStream in = process.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(60, TimeUnit.SECONDS) || (mustSucceed && process.exitValue() != 0)) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out.trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
