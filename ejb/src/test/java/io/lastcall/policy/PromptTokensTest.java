package io.lastcall.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PromptTokensTest {

    private final PromptTokens tokens = new PromptTokens("o200k_base");

    @Test
    void countsWithTheTokenizerNotByCharacters() {
        assertEquals(2, tokens.count("Hello world"));
        assertEquals(0, tokens.count(""));
        assertEquals(2 + PromptTokens.PER_MESSAGE_OVERHEAD, tokens.message("Hello world"));
    }

    @Test
    void nonLatinTextIsNotUnderestimated() {
        String japanese = "障害の概要をまとめてください。データベースの接続が失敗しました。";
        long counted = tokens.count(japanese);
        long byCharactersOverFour = (japanese.length() + 3) / 4;
        assertTrue(counted > byCharactersOverFour * 2, counted + " tokens vs " + byCharactersOverFour + " guessed");
    }

    @Test
    void anUnknownTokenizerNamesTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PromptTokens("nope"));
        assertTrue(e.getMessage().contains("cl100k_base"), e.getMessage());
    }
}
