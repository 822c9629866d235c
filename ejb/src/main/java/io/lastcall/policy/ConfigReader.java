package io.lastcall.policy;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/** The one way settings are read: a key from MicroProfile Config, or its default when unset or blank. */
final class ConfigReader {

    private final Config config;

    ConfigReader(Config config) {
        this.config = config;
    }

    long number(String key, long fallback) {
        return config.getOptionalValue(key, Long.class).orElse(fallback);
    }

    String text(String key, String fallback) {
        return config.getOptionalValue(key, String.class).filter(v -> !v.isBlank()).orElse(fallback);
    }

    boolean flag(String key, boolean fallback) {
        return config.getOptionalValue(key, Boolean.class).orElse(fallback);
    }

    <T> Optional<T> optional(String key, Class<T> type) {
        return config.getOptionalValue(key, type);
    }

    /** A comma-separated list, trimmed, without empty items. */
    static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    }
}
