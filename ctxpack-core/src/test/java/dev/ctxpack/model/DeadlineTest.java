package dev.ctxpack.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The cooperative deadline of the core's long loops: an interrupt or a passed deadline stops the work. */
class DeadlineTest {

  @Test
  void withoutDeadlineOrInterruptACheckDoesNothing() {
    Deadline.check();
    assertThat(Deadline.expired()).isFalse();
  }

  @Test
  void anInterruptedThreadStopsAtItsNextCheckAndKeepsTheFlag() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(Deadline::check).isInstanceOf(WorkCancelledException.class)
          .satisfies(e -> assertThat(((WorkCancelledException) e).interrupted()).isTrue());
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aPassedDeadlineStopsTheWorkAndIsGoneAfterwards() throws Exception {
    assertThatThrownBy(() -> Deadline.within(0, () -> {
      Deadline.check();
      return "finished";
    })).isInstanceOf(WorkCancelledException.class).satisfies(e -> assertThat(((WorkCancelledException) e).interrupted()).isFalse());
    // Outside within() there is no deadline any more.
    Deadline.check();
    assertThat(Deadline.within(60_000, () -> "finished")).isEqualTo("finished");
  }

  @Test
  void anInnerDeadlineNeverExtendsAnOuterOne() throws Exception {
    assertThatThrownBy(() -> Deadline.within(0, () -> Deadline.within(60_000, () -> {
      Deadline.check();
      return "finished";
    }))).isInstanceOf(WorkCancelledException.class);
  }
}
