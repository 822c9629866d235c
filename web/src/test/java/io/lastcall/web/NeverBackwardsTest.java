package io.lastcall.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NeverBackwardsTest {

    @Test
    void aLowerReadingKeepsTheHighestSoFarPerCounter() {
        NeverBackwards counters = new NeverBackwards();
        assertEquals(5, counters.read("a", 5));
        assertEquals(7, counters.read("a", 7));
        assertEquals(7, counters.read("a", 6), "a job counted twice in the last reading is not taken back");
        assertEquals(1, counters.read("b", 1), "each counter on its own");
        assertEquals(8, counters.read("a", 8));
    }
}
