package io.lastcall.it;

import java.nio.file.Path;

/** Settings the build hands the tests as system properties (see src-it/pom.xml). */
public final class ItConfig {

    private ItConfig() {
    }

    public static String database() {
        return System.getProperty("lastcall.it.db", "h2");
    }

    public static boolean postgres() {
        return "postgres".equals(database());
    }

    public static Path ear() {
        return Path.of(required("lastcall.it.ear"));
    }

    public static Path ejbJar() {
        return Path.of(required("lastcall.it.ejb"));
    }

    /** e.g. http://127.0.0.1:14880/lastcall */
    public static String baseUrl() {
        return required("lastcall.it.base-url");
    }

    public static String workerQueue() {
        return required("lastcall.it.worker-queue");
    }

    /** A user of the test domain: its name and the password it-domain.env gives it. */
    public record User(String name, String password) {
        public String basic() {
            return "Basic " + java.util.Base64.getEncoder().encodeToString((name + ":" + password)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** A setting of the test domain's env file (src-it/it-domain.env). */
    public static String domainSetting(String variable) {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of(required("lastcall.it.env-file")))) {
                if (line.startsWith(variable + "=")) {
                    return line.substring(variable.length() + 1).trim();
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read the test domain's env file: " + e, e);
        }
        throw new IllegalStateException(variable + " is not in the test domain's env file");
    }

    public static User user(String name) {
        String variable = "submitter2".equals(name) ? null : "LASTCALL_" + name.toUpperCase() + "_PASSWORD";
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of(required("lastcall.it.env-file")))) {
                if (variable != null && line.startsWith(variable + "=")) {
                    return new User(name, line.substring(variable.length() + 1).trim());
                }
                if (variable == null && line.startsWith("LC_EXTRA_USERS=")) {
                    for (String spec : line.substring("LC_EXTRA_USERS=".length()).trim().split("\\s+")) {
                        String[] f = spec.split(":", 3);
                        if (f[0].equals(name)) {
                            return new User(name, f[2]);
                        }
                    }
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read the test domain's env file: " + e, e);
        }
        throw new IllegalStateException("no password for user " + name + " in the test domain's env file");
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set; run the tests with mvn verify");
        }
        return value;
    }
}
