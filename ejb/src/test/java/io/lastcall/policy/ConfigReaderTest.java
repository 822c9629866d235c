package io.lastcall.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

class ConfigReaderTest {

    /** A Config over a map that counts the lookups reaching it. */
    static final class CountingConfig implements Config {
        final Map<String, String> values = new HashMap<>();
        int lookups;

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            lookups++;
            String raw = values.get(name);
            if (raw == null) {
                return Optional.empty();
            }
            if (type == Long.class) {
                return Optional.of(type.cast(Long.valueOf(raw)));
            }
            if (type == Boolean.class) {
                return Optional.of(type.cast(Boolean.valueOf(raw)));
            }
            return Optional.of(type.cast(raw));
        }

        @Override
        public <T> T getValue(String name, Class<T> type) {
            return getOptionalValue(name, type).orElseThrow();
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return values.keySet();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void eachKeyIsLookedUpOnceAndKept() {
        CountingConfig config = new CountingConfig();
        config.values.put("lastcall.a", "7");
        ConfigReader reader = new ConfigReader(config);

        assertEquals(7, reader.number("lastcall.a", 1));
        config.values.put("lastcall.a", "8");
        assertEquals(7, reader.number("lastcall.a", 1), "settings apply when the server starts");
        assertEquals(1, config.lookups);
    }

    @Test
    void anUnsetKeyIsKeptAsUnsetAndGivesEachCallersDefault() {
        CountingConfig config = new CountingConfig();
        ConfigReader reader = new ConfigReader(config);

        assertEquals(3, reader.number("lastcall.unset", 3));
        assertEquals(4, reader.number("lastcall.unset", 4));
        assertEquals(1, config.lookups);
    }

    @Test
    void theSameKeyAsAnotherTypeIsItsOwnLookup() {
        CountingConfig config = new CountingConfig();
        config.values.put("lastcall.b", "true");
        ConfigReader reader = new ConfigReader(config);

        assertEquals(true, reader.flag("lastcall.b", false));
        assertEquals("true", reader.text("lastcall.b", "x"));
        assertEquals(2, config.lookups);
    }

    @Test
    void aValueThatDoesNotConvertFailsEveryTime() {
        CountingConfig config = new CountingConfig();
        config.values.put("lastcall.c", "seven");
        ConfigReader reader = new ConfigReader(config);

        assertThrows(NumberFormatException.class, () -> reader.number("lastcall.c", 1));
        assertThrows(NumberFormatException.class, () -> reader.number("lastcall.c", 1));
        assertEquals(2, config.lookups);
    }

    @Test
    void aBlankTextGivesTheDefault() {
        CountingConfig config = new CountingConfig();
        config.values.put("lastcall.d", " ");
        assertEquals("fallback", new ConfigReader(config).text("lastcall.d", "fallback"));
    }
}
