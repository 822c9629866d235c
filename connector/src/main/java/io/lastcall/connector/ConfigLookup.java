package io.lastcall.connector;

import java.util.Locale;
import java.util.Optional;

/** Where prefixed activation settings come from: MicroProfile Config, or system/env as a fallback. */
@FunctionalInterface
public interface ConfigLookup {

    Optional<String> get(String key);

    /** Never consults anything. */
    ConfigLookup NONE = key -> Optional.empty();

    /**
     * MicroProfile Config of the calling thread's context class loader (the application's during
     * endpoint activation). Without the MicroProfile Config API on the class path, system properties
     * and then environment variables under the MicroProfile Config name mapping
     * ({@code lastcall.broker.host} -> {@code LASTCALL_BROKER_HOST}).
     */
    static ConfigLookup forCurrentThread() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            org.eclipse.microprofile.config.Config config =
                    org.eclipse.microprofile.config.ConfigProvider.getConfig(loader);
            return key -> config.getOptionalValue(key, String.class);
        } catch (LinkageError | RuntimeException noMicroProfileConfig) {
            return ConfigLookup::systemOrEnvironment;
        }
    }

    static Optional<String> systemOrEnvironment(String key) {
        String value = System.getProperty(key);
        if (value == null) {
            value = System.getenv(key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT));
        }
        return Optional.ofNullable(value);
    }
}
