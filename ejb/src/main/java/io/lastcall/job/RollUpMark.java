package io.lastcall.job;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * How far the roll-up has come: every job that ended at or before {@code rolledUpTo} (epoch ms)
 * is counted in {@link EndedTotals}, not row by row. One row, locked by each roll-up batch, so
 * two servers never roll up the same jobs.
 */
@Entity
@Table(name = "lc_rollup")
public class RollUpMark {

    /** The only row's id. */
    public static final int ID = 1;

    @Id
    @Column(name = "id")
    private int id;

    @Column(name = "rolled_up_to", nullable = false)
    private long rolledUpTo;

    protected RollUpMark() {
    }

    public long getRolledUpTo() {
        return rolledUpTo;
    }

    public void advanceTo(long finishedAt) {
        rolledUpTo = Math.max(rolledUpTo, finishedAt);
    }
}
