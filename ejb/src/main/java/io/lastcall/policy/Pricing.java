package io.lastcall.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.function.Function;

/**
 * Token prices per model in currency units per million tokens
 * ({@code lastcall.price.<model>.input-per-mtok}, {@code .output-per-mtok}, falling back to
 * {@code lastcall.price.default.*}), under one revision id ({@code lastcall.price.revision}).
 */
public final class Pricing {

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    private final String revision;
    private final Function<String, Optional<BigDecimal>> prices;

    /** {@code prices} looks up keys like {@code gpt-x.input-per-mtok} and {@code default.output-per-mtok}. */
    public Pricing(String revision, Function<String, Optional<BigDecimal>> prices) {
        this.revision = revision;
        this.prices = prices;
    }

    public String revision() {
        return revision;
    }

    /**
     * One attempt's estimate: the prompt's tokens (counted by {@link PromptTokens}) plus
     * {@code choices} × {@code max_tokens} of output, the most a request may be billed for.
     */
    public BigDecimal estimate(String model, long promptTokens, long maxTokens, long choices) {
        return cost(model, promptTokens, Math.multiplyExact(maxTokens, Math.max(1, choices)));
    }

    public BigDecimal cost(String model, long promptTokens, long completionTokens) {
        BigDecimal in = price(model, "input-per-mtok").multiply(BigDecimal.valueOf(Math.max(0, promptTokens)));
        BigDecimal out = price(model, "output-per-mtok").multiply(BigDecimal.valueOf(Math.max(0, completionTokens)));
        return in.add(out).divide(MILLION, 6, RoundingMode.HALF_UP);
    }

    private BigDecimal price(String model, String kind) {
        return prices.apply(model + "." + kind).or(() -> prices.apply("default." + kind)).orElse(BigDecimal.ZERO);
    }
}
