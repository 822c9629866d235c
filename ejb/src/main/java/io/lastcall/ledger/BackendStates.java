package io.lastcall.ledger;

import io.lastcall.job.BackendPause;
import io.lastcall.job.BackendRate;
import io.lastcall.policy.Backend;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the fleet knows of each model backend, read from the ledger (the same rows every server's
 * gate reads): what is left of its per-minute limits now, and until when it asked not to be called.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class BackendStates {

    /**
     * One backend: its declared limits (0: none), what is left of them at the reading (null when it
     * has no limit), and the end of its pause (epoch ms; 0 when it never paused).
     */
    public record BackendState(String backend, long requestsPerMinute, long tokensPerMinute, Double requestsLeft,
            Double tokensLeft, long pausedUntil) {
    }

    @PersistenceContext(unitName = "ledger")
    private EntityManager em;

    /** Every backend of {@code configured} and every one the ledger has a row for, by key. */
    public Collection<BackendState> read(long now, Collection<Backend> configured) {
        Map<String, Backend> byKey = new TreeMap<>();
        configured.forEach(b -> byKey.merge(b.key(), b, (x, y) -> x.rateLimited() ? x : y));
        Map<String, BackendRate> rates = new TreeMap<>();
        em.createQuery("SELECT r FROM BackendRate r", BackendRate.class).getResultList()
                .forEach(r -> rates.put(r.getBackend(), r));
        Map<String, Long> pauses = new TreeMap<>();
        em.createQuery("SELECT p FROM BackendPause p", BackendPause.class).getResultList()
                .forEach(p -> pauses.put(p.getBackend(), p.getPausedUntil()));
        Map<String, BackendState> states = new TreeMap<>();
        Function<String, Backend> limits = key -> byKey.getOrDefault(key, new Backend(key, 0, 0));
        for (String key : union(byKey.keySet(), rates.keySet(), pauses.keySet())) {
            Backend b = limits.apply(key);
            BackendRate rate = rates.get(key);
            // no row yet: nobody has claimed since the limit was set, so its whole minute is there
            double[] left = rate != null ? rate.leftAt(now, b.plannedRequestsPerMinute(), b.plannedTokensPerMinute())
                    : b.rateLimited() ? new double[] {b.plannedRequestsPerMinute(), b.plannedTokensPerMinute()} : null;
            states.put(key, new BackendState(key, b.requestsPerMinute(), b.tokensPerMinute(),
                    left == null ? null : left[0], left == null ? null : left[1], pauses.getOrDefault(key, 0L)));
        }
        return states.values();
    }

    @SafeVarargs
    private static List<String> union(Collection<String>... keys) {
        return java.util.Arrays.stream(keys).flatMap(Collection::stream).distinct().sorted().toList();
    }
}
