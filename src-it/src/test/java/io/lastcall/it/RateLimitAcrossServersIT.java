package io.lastcall.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link RateLimitIT} with the scale-out build's two servers sharing one backend's limit
 * (src-it-scale/scale-domain.env, workload "scale-limited": nginx's 14888, 60 requests a minute,
 * declared to both): half the jobs through each server, three times what the limit lets
 * through. Both servers' claims take from the one rate row in PostgreSQL, so nginx sees the
 * fleet stay under the limit, not each server alone (which would be twice it).
 */
@EnabledIfSystemProperty(named = "lastcall.it.scaleout", matches = "true")
class RateLimitAcrossServersIT {

    @Test
    void twoServersKeepOneLimit() throws IOException {
        String a = ItConfig.baseUrl();
        String b = System.getProperty("lastcall.it.base-url-b");
        Map<String, Long> passedBy = RateLimitIT.threeTimesTheLimit(List.of(a, b), "scale-limited", DispatchSpy.get());
        assertEquals(2, passedBy.size(), "both servers passed claims: " + passedBy);
    }
}
