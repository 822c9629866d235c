package io.lastcall.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Group commit, as a database does it for its log: items handed in by many threads are recorded
 * by a committer thread (one, or a few), all that are waiting (up to {@code maxGroup}) in one go,
 * while the callers wait for their own item's result. There is no added delay: a group is
 * whatever queued up while the committers were busy, so a lone item is recorded at once. An
 * item the group did not record — the group failed as a whole, the queue was full, the committer
 * is stopping — comes back empty, and its caller records it alone as before. The queue is
 * bounded, and a caller waits for its result, so at most {@code capacity} items are ever held.
 */
public final class GroupCommit<T, R> {

    /** Records a group in one transaction, returning one result per item, in order; throws if none of it holds. */
    public interface Recorder<T, R> {
        List<R> record(List<T> group);
    }

    private static final Logger LOG = Logger.getLogger(GroupCommit.class.getName());

    private record Pending<T, R>(T item, CompletableFuture<R> result) {
    }

    private final String what;
    private final int maxGroup;
    private final Recorder<T, R> recorder;
    private final IntConsumer committed;
    private final BlockingQueue<Pending<T, R>> queue;
    private final List<Thread> committers = new ArrayList<>();
    /**
     * Queued by {@link #stop} to wake committers that wait on an empty queue; never recorded. The
     * committers wait without a timeout: an idle server's committers (seven threads) woke ten times a
     * second each before, a few per cent of a core for nothing.
     */
    private final Pending<T, R> wake = new Pending<>(null, new CompletableFuture<>());
    private volatile boolean stopping;

    /**
     * @param committers how many groups may be recorded at once: one makes the largest groups; more
     *     let a new group start while another waits on a slow step (a publish's confirm)
     * @param committed told the size of each group once it is recorded (for metrics)
     */
    public GroupCommit(String what, int maxGroup, int capacity, int committers, Recorder<T, R> recorder,
            IntConsumer committed, ThreadFactory threads) {
        this.what = what;
        this.maxGroup = maxGroup;
        this.recorder = recorder;
        this.committed = committed;
        this.queue = new ArrayBlockingQueue<>(Math.max(1, capacity));
        for (int i = 1; i <= Math.max(1, committers); i++) {
            Thread thread = threads.newThread(this::run);
            thread.setName("lastcall " + what + " " + i);
            thread.setDaemon(true);
            this.committers.add(thread);
            thread.start();
        }
    }

    /** The item's result once its group committed; empty if it was not recorded in a group (the caller records it). */
    public Optional<R> submit(T item) {
        Pending<T, R> pending = new Pending<>(item, new CompletableFuture<>());
        if (stopping || !queue.offer(pending)) {
            return Optional.empty();
        }
        if (stopping && queue.remove(pending)) {
            // stopped between the check and the offer: nobody would take it
            return Optional.empty();
        }
        try {
            return Optional.of(pending.result().get());
        } catch (ExecutionException groupFailed) {
            return Optional.empty();
        } catch (InterruptedException e) {
            // the group may still record it: recording it alone again must then find it done
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Items handed in and not yet taken into a group. */
    public int queued() {
        return queue.size();
    }

    private void run() {
        List<Pending<T, R>> group = new ArrayList<>(maxGroup);
        while (!stopping) {
            try {
                group.add(queue.take());
                queue.drainTo(group, maxGroup - 1);
                // a wake taken by this committer: it is stopping, and records what it took with it
                group.removeIf(pending -> pending == wake);
                if (!group.isEmpty()) {
                    record(group);
                }
            } catch (InterruptedException e) {
                break;
            } finally {
                group.clear();
            }
        }
        handBackQueued();
    }

    /** What is still queued goes back to its callers, who record it alone. */
    private void handBackQueued() {
        for (Pending<T, R> left; (left = queue.poll()) != null; ) {
            if (left != wake) {
                left.result().completeExceptionally(new IllegalStateException(what + " stopped"));
            }
        }
    }

    private void record(List<Pending<T, R>> group) {
        try {
            List<R> results = recorder.record(group.stream().map(Pending::item).toList());
            for (int i = 0; i < group.size(); i++) {
                group.get(i).result().complete(results.get(i));
            }
            committed.accept(group.size());
        } catch (RuntimeException | Error whole) {
            // never leave a caller waiting: each records its own item alone
            LOG.log(Level.WARNING, "A group of " + group.size() + " in " + what + " was not recorded whole (" + whole
                    + "); each is recorded alone", whole);
            group.forEach(p -> p.result().completeExceptionally(whole));
        }
    }

    /** Stops taking items; those queued come back empty to their callers. */
    public void stop() {
        stopping = true;
        try {
            // one wake per committer still waiting, again until all have ended: another committer may
            // take a wake meant for a waiting one into its last group (a full queue has no room for a
            // wake, but then no committer waits on it); at most 5 s, as before
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (Thread thread : committers) {
                while (thread.isAlive() && System.nanoTime() < until) {
                    queue.offer(wake);
                    thread.join(50);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        handBackQueued();
    }
}
