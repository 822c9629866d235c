package io.lastcall.policy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * The one way settings are read: a key from MicroProfile Config, or its default when unset or
 * blank. Each key is read from Config once and then kept: settings apply when the server starts
 * (docs/configuration.md), and a job reads some twenty of them several times on its way, where
 * Payara's lookup of a value (its own cache included) took about 7 % of a warm drain's CPU
 * samples (docs/performance.md).
 */
final class ConfigReader {

    private final Config config;
    /** Values read so far, by type and key; a key that is unset is kept as empty. */
    private final Map<Class<?>, Map<String, Optional<?>>> read = new ConcurrentHashMap<>();

    ConfigReader(Config config) {
        this.config = config;
    }

    long number(String key, long fallback) {
        return optional(key, Long.class).orElse(fallback);
    }

    String text(String key, String fallback) {
        return optional(key, String.class).filter(v -> !v.isBlank()).orElse(fallback);
    }

    boolean flag(String key, boolean fallback) {
        return optional(key, Boolean.class).orElse(fallback);
    }

    /** The key's value as this type; a value that does not convert throws each time it is read, as Config does. */
    @SuppressWarnings("unchecked")
    <T> Optional<T> optional(String key, Class<T> type) {
        Map<String, Optional<?>> ofType = read.computeIfAbsent(type, t -> new ConcurrentHashMap<>());
        Optional<?> value = ofType.get(key);
        if (value == null) {
            value = config.getOptionalValue(key, type);
            ofType.put(key, value);
        }
        return (Optional<T>) value;
    }

    /** A comma-separated list, trimmed, without empty items. */
    static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    }
}
