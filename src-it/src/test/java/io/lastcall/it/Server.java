package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test server's process and administration, on Payara (domain "lastcall-it", asadmin) or on
 * WildFly (server "lastcall-it", jboss-cli), whichever the build started ({@code lastcall.it.server}).
 */
public final class Server {

    private static final String NAME = "lastcall-it";

    private Server() {
    }

    public static boolean wildfly() {
        return "wildfly".equals(System.getProperty("lastcall.it.server", "payara"));
    }

    private static Path runtime() {
        return Path.of(System.getProperty("lastcall.it.runtime"));
    }

    /**
     * A PostgreSQL XA data source of the test server on database lastcall_it, whose connections
     * use {@code schema}; {@code name} is the JNDI name a persistence unit gives (jdbc/...).
     */
    public static void createPostgresDataSource(String name, String schema) {
        String pool = name.substring(name.lastIndexOf('/') + 1);
        if (wildfly()) {
            if (!jbossCli(true, "/subsystem=datasources/xa-data-source=" + pool + ":read-resource").contains("success")) {
                jbossCli(false, "xa-data-source add --name=" + pool + " --jndi-name=java:/" + name
                        + " --driver-name=postgresql --min-pool-size=0 --user-name=lastcall --password=lastcall"
                        + " --xa-datasource-properties={\"ServerName\"=>\"127.0.0.1\",\"PortNumber\"=>\"5432\","
                        + "\"DatabaseName\"=>\"lastcall_it\",\"CurrentSchema\"=>\"" + schema + "\"}");
            }
            return;
        }
        if (!asadmin(true, "list-jdbc-resources").contains(name)) {
            asadmin(false, "create-jdbc-connection-pool", "--datasourceclassname",
                    "org.postgresql.xa.PGXADataSource", "--restype", "javax.sql.XADataSource", "--steadypoolsize", "0",
                    "--property", "serverName=127.0.0.1:portNumber=5432:databaseName=lastcall_it:user=lastcall"
                            + ":password=lastcall:currentSchema=" + schema, pool);
            asadmin(false, "create-jdbc-resource", "--connectionpoolid", pool, name);
        }
    }

    /** asadmin against the Payara test domain; fails on a non-zero exit unless {@code mayFail}. */
    static String asadmin(boolean mayFail, String... args) {
        List<String> command = new ArrayList<>(List.of(runtime().resolve("payara6/bin/asadmin").toString(),
                "--port", System.getProperty("lastcall.it.admin-port"), "--interactive=false"));
        // the domain's admin password, written by server/payara/lastcall-payara.sh when it created the domain
        Path password = runtime().resolve(NAME + "-admin.password");
        if (Files.exists(password)) {
            command.addAll(List.of("--user", "admin", "--passwordfile", password.toString()));
        }
        command.addAll(List.of(args));
        return run(command, mayFail);
    }

    /** Whether the Payara test domain runs an asadmin command for user admin given no password. */
    static boolean asadminWithoutPassword(String... args) {
        List<String> command = new ArrayList<>(List.of(runtime().resolve("payara6/bin/asadmin").toString(),
                "--port", System.getProperty("lastcall.it.admin-port"), "--interactive=false", "--user", "admin"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end");
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One jboss-cli command against the WildFly test server; fails on a non-zero exit unless {@code mayFail}. */
    static String jbossCli(boolean mayFail, String cliCommand) {
        return run(List.of(runtime().resolve("wildfly/bin/jboss-cli.sh").toString(), "--connect",
                "--controller=127.0.0.1:" + System.getProperty("lastcall.it.admin-port"), "--command=" + cliCommand),
                mayFail);
    }

    private static String run(List<String> command, boolean mayFail) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || (!mayFail && process.exitValue() != 0)) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path pidFile() {
        return wildfly() ? runtime().resolve("servers/" + NAME + "/server.pid")
                : runtime().resolve("domains/" + NAME + "/config/pid");
    }

    public static void kill() throws IOException, InterruptedException {
        kill(pidFile());
    }

    /** kill -9 of the Payara domain {@code domain} of the test runtime. */
    public static void killPayaraDomain(String domain) throws IOException, InterruptedException {
        kill(runtime().resolve("domains/" + domain + "/config/pid"));
    }

    private static void kill(Path pidFile) throws IOException, InterruptedException {
        String pid = Files.readString(pidFile, StandardCharsets.UTF_8).trim();
        Process kill = new ProcessBuilder("kill", "-9", pid).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -9 " + pid);
        Await.until("the server process gone", Duration.ofSeconds(30),
                () -> ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false), alive -> !alive);
    }

    /** The same script and settings the build used, without emptying the ledgers; waits until healthy. */
    public static void restart() throws IOException, InterruptedException {
        start(NAME, System.getProperty("lastcall.it.portbase"), "h2");
        Await.until("the application is back", Duration.ofSeconds(120), () -> Api.get("/api/health").status(),
                s -> s == 200);
    }

    /**
     * Starts server {@code name} on port base {@code portbase} with the build's script, env file
     * and database {@code db}, without emptying the ledgers (a deployed application starts with it).
     */
    public static void start(String name, String portbase, String db) throws IOException, InterruptedException {
        script("start", name, portbase, db, java.util.Map.of());
    }

    /** As {@link #start(String, String, String)}, with more environment for the server (settings). */
    public static void start(String name, String portbase, String db, java.util.Map<String, String> environment)
            throws IOException, InterruptedException {
        script("start", name, portbase, db, environment);
    }

    /** Stops that server with the server script (a graceful stop). */
    public static void stop(String name, String portbase) throws IOException, InterruptedException {
        script("stop", name, portbase, "postgres", java.util.Map.of());
    }

    private static void script(String action, String name, String portbase, String db,
            java.util.Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", System.getProperty("lastcall.it.server-script"), action));
        command.addAll(List.of(arguments));
        ProcessBuilder run = new ProcessBuilder(command);
        run.environment().put("LC_RUNTIME", runtime().toString());
        run.environment().put("LC_DOMAIN", name);
        run.environment().put("LC_PORTBASE", portbase);
        run.environment().put("LC_ENV_FILE", System.getProperty("lastcall.it.env-file"));
        run.environment().put("LC_DB", db);
        run.environment().put("LC_RESET_DATABASES", "false");
        run.environment().putAll(environment);
        Process process = run.inheritIO().start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), action + " within 3 minutes");
        assertEquals(0, process.exitValue(), action + ": " + List.of(run.command()));
        if (action.equals("start")) {
            awaitApplication(name, portbase);
        }
    }

    /**
     * Waits until the restarted domain's lastcall answers (any status but 404: Payara answers 404
     * while the application is not loaded). Payara 6 at times fails to load an application while
     * the domain starts ("This web container has not yet been started"), and then serves 404 until
     * it is deployed again: that is done once, said on the console with the log's SEVERE lines,
     * and a second failure fails the test with them.
     */
    private static void awaitApplication(String domain, String portbase) throws IOException, InterruptedException {
        String base = "http://127.0.0.1:" + (Integer.parseInt(portbase) + 80) + "/lastcall";
        if (answers(base, 90_000)) {
            return;
        }
        System.out.println("[Server] " + domain + ": lastcall does not answer at " + base + " after the start;"
                + " deploying it again. SEVERE lines of its log:\n" + severeLines(domain));
        script("deploy", domain, portbase, "postgres", java.util.Map.of(), ItConfig.ear().toString());
        if (!answers(base, 120_000)) {
            throw new AssertionError(domain + ": lastcall does not answer at " + base + " after the start and a"
                    + " second deployment; SEVERE lines of its log:\n" + severeLines(domain));
        }
    }

    private static boolean answers(String base, long withinMs) {
        long until = System.currentTimeMillis() + withinMs;
        while (System.currentTimeMillis() < until) {
            try {
                if (Api.sendTo(base, "GET", "/api/health", null, null).status() != 404) {
                    return true;
                }
            } catch (IllegalStateException notListening) {
                // not listening yet
            }
            Await.sleep(1_000);
        }
        return false;
    }

    private static String severeLines(String domain) {
        Path log = runtime().resolve("domains").resolve(domain).resolve("logs/server.log");
        try {
            return String.join("\n", Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(line -> line.contains("[SEVERE]") || line.startsWith("Caused by")).toList());
        } catch (IOException e) {
            return "(no log at " + log + ": " + e + ")";
        }
    }
}
