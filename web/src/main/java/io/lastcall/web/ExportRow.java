package io.lastcall.web;

import io.lastcall.job.Attempt;
import io.lastcall.job.Job;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One row of the ledger export: a job and one of its attempts (the attempt's columns empty for a
 * job without one). The export's columns are these components, in this order, in snake_case —
 * a column is added here and nowhere else.
 */
record ExportRow(String jobId, String workload, String state, String reason, String submittedBy, Long expiresAt,
        Long acceptedAt, Long publishedAt, Long receivedAt, Long permitAt, Long checkedAt, Long handedOffAt,
        Long finishedAt, BigDecimal estimate, String estimateRevision, String attemptId, String attemptState,
        String instanceId, Long promptTokens, Long completionTokens, Boolean usageMissing, BigDecimal cost,
        BigDecimal reserved, Integer httpStatus, Long checkToLastByteMs, Boolean late) {

    static final List<String> COLUMNS = Arrays.stream(ExportRow.class.getRecordComponents())
            .map(c -> snake(c.getName())).toList();

    static ExportRow of(Job j, Attempt a) {
        boolean none = a == null;
        return new ExportRow(j.getJobId(), j.getWorkload(), j.getState().name(), j.getReason(), j.getSubmittedBy(),
                j.getExpiresAt(), j.getAcceptedAt(), j.getPublishedAt(), j.getReceivedAt(), j.getPermitAt(),
                j.getCheckedAt(), j.getHandedOffAt(), j.getFinishedAt(), j.getEstimate(), j.getEstimateRevision(),
                none ? null : a.getAttemptId(), none ? null : a.getState().name(), none ? null : a.getInstanceId(),
                none ? null : a.getPromptTokens(), none ? null : a.getCompletionTokens(),
                none ? null : a.isUsageMissing(), none ? null : a.getCost(), none ? null : a.getReserved(),
                none ? null : a.getHttpStatus(), none ? null : a.getCheckToLastByteMs(), none ? null : a.isLate());
    }

    /** The cells, in the order of {@link #COLUMNS}. */
    List<Object> values() {
        List<Object> cells = new ArrayList<>();
        for (RecordComponent c : ExportRow.class.getRecordComponents()) {
            try {
                cells.add(c.getAccessor().invoke(this));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("export column " + c.getName(), e);
            }
        }
        return cells;
    }

    /** {@code checkToLastByteMs} → {@code check_to_last_byte_ms}. */
    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
