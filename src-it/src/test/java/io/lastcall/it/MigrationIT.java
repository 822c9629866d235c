package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lastcall.it.Api.Reply;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Upgrading a ledger: before this deployment, a PostgreSQL schema of its own is filled the way
 * lastcall 0.1 left it (its tables as EclipseLink created them, no migration history, a
 * completed job with its attempt and counter). lastcall then deploys on it through a pool of its
 * own: Flyway baselines the schema at version 1 and applies the later versions, and the old job
 * still reads, counts and is searchable, and new jobs are accepted next to it.
 */
@ExtendWith(ArquillianExtension.class)
class MigrationIT {

    static final String SCHEMA = "lastcall_0_1";
    static final String JOB = "release-0-1-job";
    static final String LEDGER = "jdbc/lastcall-upgrade";

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        if (!ItConfig.postgres()) {
            return Deployments.lastcallWithProbes();
        }
        Postgres.sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE; CREATE SCHEMA " + SCHEMA + "; SET search_path TO "
                + SCHEMA + "; " + release01Schema() + release01Rows());
        Server.createPostgresDataSource(LEDGER, SCHEMA);
        DispatchSpy.get();
        return Deployments.lastcallWithProbes(LEDGER, Map.of());
    }

    @Test
    void aLedgerOfTheFirstReleaseIsBaselinedMigratedAndItsJobsStillRead() {
        assumeTrue(ItConfig.postgres(), "the old ledger is written with psql");

        List<String> expected = new java.util.ArrayList<>(List.of("1|BASELINE|t"));
        migrationVersions().stream().filter(v -> v > 1).forEach(v -> expected.add(v + "|SQL|t"));
        assertEquals(expected, Postgres.sql("SELECT version,"
                + " type, success FROM " + SCHEMA + ".lc_schema_history ORDER BY installed_rank").lines().toList(),
                "baselined at 1, then every later version of the release's scripts applied");
        assertEquals("1", Postgres.sql("SELECT check_to_last_byte_ms FROM " + SCHEMA + ".lc_attempt WHERE attempt_id"
                + " = 'release-0-1-attempt'"), "version 5 renamed check_to_wire_ms, keeping its values");
        assertEquals("0", Postgres.sql("SELECT count(*) FROM " + SCHEMA + ".lc_ended_totals WHERE double_claims > 0"),
                "version 2's table, renamed and extended by version 3, is there");
        assertEquals("1", Postgres.sql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '"
                + SCHEMA + "' AND table_name = 'lc_instance_lease'"), "version 4's lease table is there");

        JsonObject job = Jobs.get(JOB);
        assertEquals("COMPLETED", job.getString("outcome"));
        assertEquals("ON_TIME", job.getString("reason"));
        assertEquals("submitter", job.getString("tenant"), "a job from before tenants counts as its submitter's");
        JsonObject attempt = job.getJsonArray("attempts").getJsonObject(0);
        assertEquals("COMPLETED", attempt.getString("state"));
        assertEquals(0, attempt.getJsonNumber("cost").bigDecimalValue().compareTo(new java.math.BigDecimal("0.000300")));

        Reply found = Api.get("/api/jobs?workload=incident-summary&outcome=COMPLETED");
        assertTrue(found.json().toString().contains(JOB), found.json().toString());

        JsonObject stats = Api.get("/api/stats").json().asJsonObject().getJsonObject("workloads")
                .getJsonObject("incident-summary");
        assertEquals(1, stats.getInt("accepted"));
        assertEquals(1, stats.getInt("terminal"));
        assertTrue(stats.getBoolean("invariant_holds"), stats.toString());

        String fresh = Jobs.newId("after-upgrade");
        Reply accepted = Jobs.submit(Jobs.envelope(fresh, Jobs.now() + 60_000, "spy-ok"));
        assertEquals(201, accepted.status(), accepted.json().toString());
        // it runs to its end here, so nothing of it is left on the shared queues for the next test class
        assertEquals("COMPLETED", Jobs.awaitOutcome(fresh, java.time.Duration.ofSeconds(60)).getString("outcome"));
        assertEquals("1", Postgres.sql("SELECT count(*) FROM " + SCHEMA + ".lc_job WHERE job_id = '" + fresh + "'"));
    }

    /** The versions of this release's PostgreSQL ledger scripts (common and postgresql), in order. */
    private static List<Integer> migrationVersions() {
        Path migrations = ItConfig.ejbJar().getParent().getParent().resolve("src/main/resources/db/migration");
        try (java.util.stream.Stream<Path> files = java.util.stream.Stream.of("common", "postgresql")
                .flatMap(dir -> {
                    try {
                        return Files.list(migrations.resolve(dir)).toList().stream();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).sorted().toList();
        }
    }

    private static String release01Schema() {
        Path v1 = ItConfig.ejbJar().getParent().getParent()
                .resolve("src/main/resources/db/migration/postgresql/V1__ledger.sql");
        try {
            return Files.readString(v1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A job that 0.1 completed: the rows as that release wrote them. */
    private static String release01Rows() {
        long t = System.currentTimeMillis() - 3_600_000;
        return "INSERT INTO lc_job (job_id, accepted_at, cancel_requested, checked_at, deadline_semantics, estimate,"
                + " estimate_revision, expires_at, finished_at, generation, handed_off_at, min_execution_ms, model,"
                + " payload, permit_at, published_at, reason, received_at, row_version, schema_version,"
                + " source_revision, state, subject, submitted_by, workload) VALUES ('" + JOB + "', " + t
                + ", false, " + (t + 30) + ", 'LATEST_START', 0.000400, 'tokens-v1', " + (t + 60_000) + ", "
                + (t + 900) + ", 1, " + (t + 35) + ", 0, 'spy-ok', '{\"model\":\"spy-ok\",\"messages\":[]}', "
                + (t + 20) + ", " + (t + 5) + ", 'ON_TIME', " + (t + 10) + ", 3, 1, 'r1', 'COMPLETED',"
                + " 'release-0-1-subject', 'submitter', 'incident-summary');"
                + "INSERT INTO lc_attempt (attempt_id, boot_id, check_to_handoff_ms, check_to_wire_ms, claimed_at,"
                + " completion_tokens, cost, estimate, estimate_revision, finished_at, generation, handed_off_at,"
                + " http_status, instance_id, job_id, late, prompt_tokens, reserved, result, retryable, state,"
                + " usage_missing, workload) VALUES ('release-0-1-attempt', 'boot-1', 5, 1, " + (t + 30)
                + ", 100, 0.000300, 0.000400, 'tokens-v1', " + (t + 900) + ", 1, " + (t + 35) + ", 200, 'old-host',"
                + " '" + JOB + "', false, 200, 0, '{}', false, 'COMPLETED', false, 'incident-summary');"
                + "INSERT INTO lc_workload_counter (workload, accepted) VALUES ('incident-summary', 1);"
                + "INSERT INTO lc_subject (subject, latest_revision, updated_at) VALUES ('release-0-1-subject', 'r1', "
                + t + ");";
    }
}
