package io.lastcall.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PricingTest {

    private final Pricing pricing = new Pricing("rev-1", key -> Optional.ofNullable(Map.of(
            "default.input-per-mtok", new BigDecimal("1"), "default.output-per-mtok", new BigDecimal("2"),
            "big.input-per-mtok", new BigDecimal("10")).get(key)));

    @Test
    void costPerMillionTokensWithModelOverrides() {
        assertEquals(new BigDecimal("0.000025"), pricing.cost("m", 5, 10));
        assertEquals(new BigDecimal("0.000070"), pricing.cost("big", 5, 10), "input from big, output from default");
    }

    @Test
    void estimateIsPromptTokensPlusEveryChoiceAtMaxTokens() {
        assertEquals(pricing.cost("m", 10, 256), pricing.estimate("m", 10, 256, 1));
        assertEquals(pricing.cost("m", 10, 8 * 256), pricing.estimate("m", 10, 256, 8), "n = 8 is billed 8 times");
        assertEquals("rev-1", pricing.revision());
    }

    @Test
    void withoutADefaultPriceAModelWithoutItsOwnIsNotPriced() {
        Pricing own = new Pricing("rev-1", key -> Optional.ofNullable(Map.of(
                "gpt-x.input-per-mtok", new BigDecimal("2.5"), "gpt-x.output-per-mtok", new BigDecimal("10"),
                "half.input-per-mtok", new BigDecimal("1")).get(key)));
        assertTrue(own.priced("gpt-x"));
        assertFalse(own.priced("unknown"), "no implicit default price");
        assertFalse(own.priced("half"), "an output price is missing");
        assertNull(own.cost("unknown", 5, 10), "no price any more at settlement: the estimate stands in");
        assertTrue(pricing.priced("anything"), "an explicit default prices every model");
    }
}
