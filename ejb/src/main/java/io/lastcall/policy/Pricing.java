package io.lastcall.policy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.function.Function;

/**
 * Token prices per model in currency units per million tokens
 * ({@code lastcall.price.<model>.input-per-mtok}, {@code .output-per-mtok}, falling back to
 * {@code lastcall.price.default.*} when that is set), under one revision id
 * ({@code lastcall.price.revision}). A model with neither is refused at ingress.
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

    /** The tokens a request counts against a provider's tokens-per-minute: the prompt's plus {@code choices} × {@code max_tokens}. */
    public static long tokens(long promptTokens, long maxTokens, long choices) {
        return Math.addExact(Math.max(0, promptTokens), Math.multiplyExact(maxTokens, Math.max(1, choices)));
    }

    /** The cost of this usage, or null when the model has no price (any more): then the estimate stands in. */
    public BigDecimal cost(String model, long promptTokens, long completionTokens) {
        Optional<BigDecimal> input = lookup(model, "input-per-mtok");
        Optional<BigDecimal> output = lookup(model, "output-per-mtok");
        if (input.isEmpty() || output.isEmpty()) {
            return null;
        }
        BigDecimal in = input.get().multiply(BigDecimal.valueOf(Math.max(0, promptTokens)));
        BigDecimal out = output.get().multiply(BigDecimal.valueOf(Math.max(0, completionTokens)));
        return in.add(out).divide(MILLION, 6, RoundingMode.HALF_UP);
    }

    /** Whether both prices of {@code model} are known (its own, or the configured default). */
    public boolean priced(String model) {
        return lookup(model, "input-per-mtok").isPresent() && lookup(model, "output-per-mtok").isPresent();
    }

    private Optional<BigDecimal> lookup(String model, String kind) {
        return prices.apply(model + "." + kind).or(() -> prices.apply("default." + kind));
    }
}
