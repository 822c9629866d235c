package io.lastcall.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls until a condition holds; fails with the last observed value. */
public final class Await {

    private Await() {
    }

    public static <T> T until(String what, Duration timeout, Supplier<T> probe, java.util.function.Predicate<T> done) {
        long end = System.nanoTime() + timeout.toNanos();
        T last = null;
        RuntimeException lastError = null;
        while (System.nanoTime() < end) {
            try {
                last = probe.get();
                lastError = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (RuntimeException e) {
                lastError = e;
            }
            sleep(250);
        }
        AssertionError failure = new AssertionError("Timed out after " + timeout.toSeconds() + " s waiting for "
                + what + "; last observed: " + last);
        if (lastError != null) {
            failure.initCause(lastError);
        }
        throw failure;
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
