package io.lastcall.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the job-level test classes share: the dispatch spy is up before the EAR deploys, the
 * probe queues are fresh, and every test starts and ends with the worker idle (nothing
 * dispatching, waiting for a permit or queued), so one test's slow jobs never occupy the next
 * test's consumers.
 */
abstract class SpyBackedDeployment {

    protected final DispatchSpy spy = DispatchSpy.get();

    @Deployment(testable = false)
    static EnterpriseArchive deployment() {
        DispatchSpy.get();
        Deployments.freshProbeQueues();
        return Deployments.lastcallWithProbes();
    }

    @BeforeEach
    void workerIdle() {
        Jobs.awaitIdle();
    }

    /**
     * And ends with it idle: a job still waiting when the class's deployment goes would be
     * redelivered to the next class's, which may run on another ledger (MigrationIT) and drop it,
     * leaving it open here until the reconciler expires it (an invariant another class checks).
     */
    @AfterEach
    void workerIdleAfter() {
        Jobs.awaitIdle();
    }
}
