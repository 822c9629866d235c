package io.lastcall.dispatch;

/** What one call to the model backend came to. */
public record ModelResult(Kind kind, Integer httpStatus, Long promptTokens, Long completionTokens, String content,
        String error, boolean retryable) {

    public enum Kind {
        /** a 2xx answer, usage as reported */
        COMPLETED,
        /** refused or failed without the work having run (connect failure, an error status) */
        FAILED,
        /** may have run remotely: timeout or a broken connection after the request left */
        UNKNOWN
    }

    public static ModelResult completed(int status, Long prompt, Long completion, String content) {
        return new ModelResult(Kind.COMPLETED, status, prompt, completion, content, null, false);
    }

    /**
     * @param retryable the work provably did not run: not reached, or refused with 429, 502, 503 or 504
     */
    public static ModelResult failed(Integer status, String error, boolean retryable) {
        return new ModelResult(Kind.FAILED, status, null, null, null, error, retryable);
    }

    public static ModelResult unknown(String error) {
        return new ModelResult(Kind.UNKNOWN, null, null, null, null, error, false);
    }
}
