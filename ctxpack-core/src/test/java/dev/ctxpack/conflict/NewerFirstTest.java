package dev.ctxpack.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.order.OrderMode;
import org.junit.jupiter.api.Test;

/** Which positions are strongest in each order, and which of two dates is newer. */
class NewerFirstTest {
  @Test
  void strongestPositionsFollowLostInTheMiddle() {
    // five slots: ranks 1, 3, 5 from the front, 2, 4 from the back
    int[] expected = {0, 2, 4, 3, 1};
    for (int i = 0; i < 5; i++) assertThat(NewerFirst.strength(i, 5, OrderMode.LOST_IN_THE_MIDDLE)).isEqualTo(expected[i]);
    assertThat(NewerFirst.strength(3, 5, OrderMode.SCORE)).isEqualTo(3);
    assertThat(DefaultConflictDetector.newer("2025-10-01", "2024-06-15")).isNegative();
    assertThat(DefaultConflictDetector.newer("2024-06", "2024-06-15")).isZero(); // the same month: neither is newer
    assertThat(DefaultConflictDetector.newer("2024", "2025-01-15")).isPositive();
    assertThat(DefaultConflictDetector.newer("last week", "2024-06-15")).isZero();
  }
}
