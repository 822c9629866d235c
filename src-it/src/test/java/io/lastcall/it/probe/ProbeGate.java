package io.lastcall.it.probe;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Closed at deployment; a message on it.release opens it. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class ProbeGate {

    private final CountDownLatch open = new CountDownLatch(1);

    public void open() {
        open.countDown();
    }

    public void awaitOpen() throws InterruptedException {
        if (!open.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("probe gate never opened");
        }
    }
}
