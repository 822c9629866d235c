package io.lastcall.policy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Locale;

/**
 * Counts prompt tokens with a real BPE tokenizer (JTokkit) instead of guessing from characters,
 * which underestimates non-Latin text several times over. The encoding is
 * {@code lastcall.price.tokenizer} ({@code o200k_base} by default, the encoding of current
 * OpenAI-style models; {@code cl100k_base} for older ones). Each chat message adds a small
 * fixed overhead for its role and separators, as the providers bill it.
 */
public final class PromptTokens {

    /** Tokens a chat message costs beyond its content (role and separators). */
    public static final int PER_MESSAGE_OVERHEAD = 4;

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final Encoding encoding;

    public PromptTokens(String encodingName) {
        this.encoding = REGISTRY.getEncoding(type(encodingName));
    }

    public static EncodingType type(String name) {
        String wanted = name == null ? "o200k_base" : name.trim().toLowerCase(Locale.ROOT);
        for (EncodingType type : EncodingType.values()) {
            if (type.getName().equals(wanted)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown tokenizer '" + name + "' (lastcall.price.tokenizer); known: "
                + java.util.Arrays.stream(EncodingType.values()).map(EncodingType::getName).toList());
    }

    /** Tokens of one message's text. */
    public long count(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /** Tokens of one chat message: its text plus the per-message overhead. */
    public long message(String text) {
        return count(text) + PER_MESSAGE_OVERHEAD;
    }
}
