package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The test domain's server process: killed with SIGKILL and started again as the build started it. */
public final class Server {

    private Server() {
    }

    private static Path domainDir() {
        return Path.of(System.getProperty("lastcall.it.runtime"), "domains", "lastcall-it");
    }

    /** asadmin against the test domain; fails on a non-zero exit unless {@code mayFail}. */
    public static String asadmin(boolean mayFail, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("lastcall.it.runtime"), "payara6", "bin", "asadmin").toString(),
                "--port", System.getProperty("lastcall.it.admin-port"), "--interactive=false"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || (!mayFail && process.exitValue() != 0)) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run asadmin: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static void kill() throws IOException, InterruptedException {
        String pid = Files.readString(domainDir().resolve("config/pid"), StandardCharsets.UTF_8).trim();
        Process kill = new ProcessBuilder("kill", "-9", pid).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -9 " + pid);
        Await.until("the server process gone", Duration.ofSeconds(30),
                () -> ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false), alive -> !alive);
    }

    /** The same script and settings the build used, without emptying the ledgers; waits until healthy. */
    public static void restart() throws IOException, InterruptedException {
        ProcessBuilder start = new ProcessBuilder("bash", System.getProperty("lastcall.it.payara-script"), "start");
        start.environment().put("LC_RUNTIME", System.getProperty("lastcall.it.runtime"));
        start.environment().put("LC_DOMAIN", "lastcall-it");
        start.environment().put("LC_PORTBASE", System.getProperty("lastcall.it.portbase"));
        start.environment().put("LC_ENV_FILE", System.getProperty("lastcall.it.env-file"));
        start.environment().put("LC_DB", "h2");
        start.environment().put("LC_RESET_DATABASES", "false");
        Process process = start.inheritIO().start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "restart within 3 minutes");
        assertEquals(0, process.exitValue(), "restart: " + List.of(start.command()));
        Await.until("the application is back", Duration.ofSeconds(120), () -> Api.get("/api/health").status(),
                s -> s == 200);
    }
}
