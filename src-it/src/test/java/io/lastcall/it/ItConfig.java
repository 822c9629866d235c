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

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set; run the tests with mvn verify");
        }
        return value;
    }
}
