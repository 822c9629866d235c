package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The threads model calls run on once they are handed off, so that a consumer thread is free for
 * the next delivery as soon as the HANDED_OFF commit is made (docs/design.md §3): as many
 * container-managed threads as there are dispatch permits, all started with the application — a
 * permit holder always finds one waiting, so its request is written within the handoff
 * authorization. A CDI bean, not an EJB (every dispatch hands it a call), created when the
 * application starts.
 */
@ApplicationScoped
public class CallExecutor {

    private static final Logger LOG = Logger.getLogger(CallExecutor.class.getName());

    @Resource
    ManagedThreadFactory threads;

    @Inject
    Settings settings;

    private ThreadPoolExecutor pool;

    @PostConstruct
    void start() {
        int size = settings.dispatch().permits();
        pool = new ThreadPoolExecutor(size, size, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
        // started now and kept: a thread created on demand (the container captures its context)
        // took longer than the handoff authorization on a loaded 2-core machine, and the call was not sent
        pool.prestartAllCoreThreads();
    }

    /** Makes the container create this bean, and so start its threads, with the application. */
    void created(@Observes Startup application) {
        // nothing more: delivering the event constructed the bean
    }

    public void run(Runnable call) {
        pool.execute(call);
    }

    /** Calls in flight on this executor now. */
    public int active() {
        return pool.getActiveCount();
    }

    @PreDestroy
    void stop() {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warning(pool.getActiveCount() + " model calls still running at shutdown; the reconciler marks"
                        + " them OUTCOME_UNKNOWN");
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
        }
    }
}
