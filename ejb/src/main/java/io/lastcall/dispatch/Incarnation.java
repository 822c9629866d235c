package io.lastcall.dispatch;

import io.lastcall.policy.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * Who this server is ({@code lastcall.instance.id}) and which boot of it this is (a new id at
 * every start). Every attempt records both, so after a restart the server can tell the handoffs
 * its previous incarnation left behind: they can no longer receive a result.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Incarnation {

    @Inject
    Settings settings;

    private String instanceId;
    private final String bootId = UUID.randomUUID().toString();
    private final long bootedAt = System.currentTimeMillis();

    @PostConstruct
    void init() {
        instanceId = settings.instanceId();
    }

    public String instanceId() {
        return instanceId;
    }

    public String bootId() {
        return bootId;
    }

    public long bootedAt() {
        return bootedAt;
    }
}
