package io.lastcall.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    private final List<List<Integer>> groups = new CopyOnWriteArrayList<>();
    private final Map<Integer, Optional<Integer>> answers = new ConcurrentHashMap<>();

    private Thread submitter(GroupCommit<Integer, Integer> commit, int item) {
        Thread t = new Thread(() -> answers.put(item, commit.submit(item)));
        t.start();
        return t;
    }

    private static void awaitQueued(GroupCommit<?, ?> commit, int n) throws InterruptedException {
        for (int i = 0; i < 500 && commit.queued() != n; i++) {
            Thread.sleep(5);
        }
        assertEquals(n, commit.queued());
    }

    @Test
    void whatQueuesWhileAGroupIsRecordedIsTheNextGroupAndEachCallerGetsItsOwnResult() throws Exception {
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>("test", 4, 100, 1, group -> {
            groups.add(List.copyOf(group));
            if (groups.size() == 1) {
                firstHeld.countDown();
                await(release);
            }
            return group.stream().map(i -> i * 10).toList();
        }, size -> { }, Executors.defaultThreadFactory());
        List<Thread> threads = new ArrayList<>();
        threads.add(submitter(commit, 0));
        assertTrue(firstHeld.await(5, TimeUnit.SECONDS));
        for (int i = 1; i <= 6; i++) {
            threads.add(submitter(commit, i));
        }
        awaitQueued(commit, 6);
        release.countDown();
        for (Thread t : threads) {
            t.join(5_000);
        }
        commit.stop();

        // alone at first, then at most 4 at a time out of the 6 that queued meanwhile
        assertEquals(List.of(1, 4, 2), groups.stream().map(List::size).toList());
        for (int i = 0; i <= 6; i++) {
            assertEquals(Optional.of(i * 10), answers.get(i), "item " + i);
        }
    }

    @Test
    void aGroupThatFailsWholeLeavesEveryItemToItsCaller() {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>("test", 8, 100, 1, group -> {
            throw new IllegalStateException("deadlock detected");
        }, size -> { }, Executors.defaultThreadFactory());
        assertEquals(Optional.empty(), commit.submit(1));
        commit.stop();
    }

    @Test
    void aFullQueueOrAStoppedCommitterLeavesTheItemToItsCaller() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>("test", 8, 1, 1, group -> {
            held.countDown();
            await(release);
            return group;
        }, size -> { }, Executors.defaultThreadFactory());
        Thread first = submitter(commit, 1);
        assertTrue(held.await(5, TimeUnit.SECONDS));
        Thread queued = submitter(commit, 2);
        awaitQueued(commit, 1);
        assertEquals(Optional.empty(), commit.submit(3), "the queue holds one");
        release.countDown();
        first.join(5_000);
        queued.join(5_000);
        assertEquals(Optional.of(1), answers.get(1));
        assertEquals(Optional.of(2), answers.get(2));

        commit.stop();
        assertEquals(Optional.empty(), commit.submit(4), "stopped");
    }

    @Test
    void stopEndsCommittersThatWaitOnAnEmptyQueue() throws Exception {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        GroupCommit<Integer, Integer> commit = new GroupCommit<>("test", 8, 16, 3, group -> group, size -> { },
                runnable -> {
                    Thread thread = Executors.defaultThreadFactory().newThread(runnable);
                    threads.add(thread);
                    return thread;
                });
        assertEquals(Optional.of(7), commit.submit(7));
        // all three committers now wait on the empty queue, without a timeout
        commit.stop();
        assertEquals(3, threads.size());
        for (Thread thread : threads) {
            assertTrue(!thread.isAlive(), thread.getName() + " still runs after stop");
        }
        assertEquals(Optional.empty(), commit.submit(8), "stopped");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
