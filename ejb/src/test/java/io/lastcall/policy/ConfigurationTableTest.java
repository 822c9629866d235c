package io.lastcall.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's table and the code agree: every key the code reads by name is in the
 * table with the code's default, and every key in the table is read somewhere (as itself, or as
 * the setting name a composed key ends with: a workload's {@code max-horizon-ms}, the adapter's
 * {@code prefetch}).
 */
class ConfigurationTableTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| (`lastcall\\.[^|]+) \\| ([^|]*) \\|");
    private static final Pattern KEY = Pattern.compile("`(lastcall\\.[a-z0-9.<>-]+|\\.[a-z0-9-]+)`");
    private static final Pattern READ = Pattern.compile(
            "(?:text|number|flag|optional|getOptionalValue|getValue)\\(\\s*\"(lastcall\\.[a-z0-9.-]*[a-z0-9])\"\\s*,\\s*([^)]*)\\)"
                    + "|@ConfigProperty\\(name = \"(lastcall\\.[a-z0-9.-]+)\"(?:, defaultValue = \"([^\"]*)\")?");

    /** The table: key → its default cell's first value (backticks removed), or "" when it has none. */
    private static Map<String, String> documented() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
        Map<String, String> keys = new LinkedHashMap<>();
        Matcher row = ROW.matcher(doc);
        while (row.find()) {
            Matcher key = KEY.matcher(row.group(1));
            // "`a`, `b` | `1`, `2`": the n-th key has the n-th default
            java.util.List<String> defaults = Pattern.compile("`([^`]*)`").matcher(row.group(2)).results()
                    .map(r -> r.group(1)).toList();
            String last = null;
            for (int i = 0; key.find(); i++) {
                String k = key.group(1);
                // ".budget-period" after "lastcall.workload.<name>.budget": the same prefix
                last = k.startsWith(".") ? last.substring(0, last.lastIndexOf('.')) + k : k;
                String dflt = defaults.isEmpty() ? "" : defaults.get(Math.min(i, defaults.size() - 1));
                keys.put(last, dflt);
                if (last.startsWith("lastcall.workload.<name>.")) {
                    // each workload key falls back to lastcall.workload.default.<the same>
                    keys.put(last.replace("<name>", "default"), dflt);
                }
            }
        }
        return keys;
    }

    private static String sources() throws IOException {
        try (Stream<Path> files = Stream.of("ejb", "web", "connector").map(m -> Path.of("..", m, "src", "main"))
                .flatMap(ConfigurationTableTest::walk)) {
            return files.filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".xml"))
                    .map(ConfigurationTableTest::read).collect(Collectors.joining("\n"));
        }
    }

    @Test
    void everyKeyTheCodeReadsIsDocumentedWithItsDefault() throws IOException {
        Map<String, String> table = documented();
        assertTrue(table.size() > 50, "the table was read: " + table.size() + " keys");
        Map<String, String> wrong = new TreeMap<>();
        Matcher read = READ.matcher(sources());
        while (read.find()) {
            String key = read.group(1) != null ? read.group(1) : read.group(3);
            String codeDefault = read.group(1) != null ? literal(read.group(2)) : read.group(4);
            if (!table.containsKey(key)) {
                wrong.put(key, "not in docs/configuration.md");
            } else if (codeDefault != null && !codeDefault.equalsIgnoreCase(table.get(key))) {
                wrong.put(key, "default " + codeDefault + " in the code, " + table.get(key) + " in the table");
            }
        }
        assertEquals(Map.of(), wrong);
    }

    @Test
    void theMdbsDefaultQueuesAreTheDocumentedOnes() throws IOException {
        Map<String, String> table = documented();
        assertEquals(Defaults.WORKER_QUEUES, table.get("lastcall.worker.queue"));
        assertEquals(Defaults.DEAD_LETTER_QUEUE, table.get("lastcall.dead-letter.queue"));
    }

    @Test
    void everyDocumentedKeyIsRead() throws IOException {
        String code = sources();
        Map<String, String> unread = new TreeMap<>();
        for (String key : documented().keySet()) {
            String name = key.substring(key.lastIndexOf('.') + 1);
            if (!code.contains("\"" + key + "\"") && !code.contains("\"" + name + "\"")
                    && !code.contains("." + name + "\"")) {
                unread.put(key, "nothing in ejb, web or connector reads it");
            }
        }
        assertEquals(Map.of(), unread);
    }

    /** A default written as a literal ({@code 5_000}, {@code 30_000L}, {@code "edf"}) or a {@link Defaults} constant, else null. */
    private static String literal(String expression) {
        String e = expression.trim();
        if (e.matches("Defaults\\.[A-Z_]+")) {
            try {
                return (String) Defaults.class.getField(e.substring("Defaults.".length())).get(null);
            } catch (ReflectiveOperationException unknown) {
                throw new IllegalStateException(e, unknown);
            }
        }
        if (e.matches("\"[^\"]*\"")) {
            return e.substring(1, e.length() - 1);
        }
        if (e.equals("true") || e.equals("false")) {
            return e;
        }
        if (e.matches("-?[0-9_]+L?")) {
            return e.replace("_", "").replace("L", "");
        }
        return null;
    }

    private static Stream<Path> walk(Path root) {
        try {
            return Files.walk(root).filter(Files::isRegularFile).toList().stream();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
