package io.lastcall.web;

import io.lastcall.ledger.JobFilter;
import io.lastcall.ledger.LedgerQueries;
import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Streams the ledger for a filter, one row per attempt (a job without attempts is one row with
 * the attempt's columns empty), page by page ({@link JobFilter#MAX_LIMIT} jobs a read), so an
 * export of any size never sits in memory. CSV with a header row, or a JSON array of objects.
 */
final class LedgerExport {

    static final List<String> COLUMNS = ExportRow.COLUMNS;

    private LedgerExport() {
    }

    static StreamingOutput csv(LedgerQueries queries, JobFilter filter) {
        return out -> {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            w.write(String.join(",", COLUMNS) + "\n");
            eachRow(queries, filter, row -> {
                List<String> cells = new ArrayList<>();
                for (Object v : row) {
                    cells.add(csvCell(v));
                }
                w.write(String.join(",", cells) + "\n");
            });
            w.flush();
        };
    }

    static StreamingOutput json(LedgerQueries queries, JobFilter filter) {
        return out -> {
            // flushed, never closed: the container owns the response stream
            JsonGenerator g = Json.createGenerator(out);
            g.writeStartArray();
            eachRow(queries, filter, row -> {
                g.writeStartObject();
                for (int i = 0; i < COLUMNS.size(); i++) {
                    Object v = row.get(i);
                    if (v == null) {
                        g.writeNull(COLUMNS.get(i));
                    } else if (v instanceof Boolean b) {
                        g.write(COLUMNS.get(i), b);
                    } else if (v instanceof Number) {
                        g.write(COLUMNS.get(i), new java.math.BigDecimal(v.toString()));
                    } else {
                        g.write(COLUMNS.get(i), v.toString());
                    }
                }
                g.writeEnd();
            });
            g.writeEnd();
            g.flush();
        };
    }

    private interface RowSink {
        void accept(List<Object> row) throws IOException;
    }

    private static void eachRow(LedgerQueries queries, JobFilter filter, RowSink sink) throws IOException {
        JobFilter page = filter.withLimit(JobFilter.MAX_LIMIT);
        while (true) {
            List<Job> jobs = queries.search(page);
            if (jobs.isEmpty()) {
                return;
            }
            Map<String, List<Attempt>> attempts = queries.attemptsOf(jobs.stream().map(Job::getJobId).toList());
            for (Job job : jobs) {
                List<Attempt> list = attempts.getOrDefault(job.getJobId(), List.of());
                if (list.isEmpty()) {
                    sink.accept(ExportRow.of(job, null).values());
                }
                for (Attempt a : list) {
                    sink.accept(ExportRow.of(job, a).values());
                }
            }
            if (jobs.size() < JobFilter.MAX_LIMIT) {
                return;
            }
            page = page.after(jobs.get(jobs.size() - 1));
        }
    }

    /**
     * RFC 4180: quoted when it holds a comma, a quote or a line break. A text cell that starts with
     * {@code = + - @} (or a tab or carriage return) gets a leading {@code '} so that a spreadsheet
     * shows it instead of evaluating it as a formula: job ids, subjects and errors come from outside.
     */
    static String csvCell(Object v) {
        if (v == null) {
            return "";
        }
        String s = v.toString();
        if (!(v instanceof Number) && !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
            s = "'" + s;
        }
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
