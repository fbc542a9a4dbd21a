package dev.ctxpack.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RequestVectorsTest {
  private final CachingEmbedderTest.Recording model = new CachingEmbedderTest.Recording();

  @AfterEach
  void noRequestLeftOpen() {
    assertThat(RequestVectors.held()).isZero();
  }

  @Test
  void outsideARequestEveryCallRunsTheModel() {
    model.embed("tea");
    model.embed("tea");
    assertThat(model.calls).containsExactly(List.of("tea"), List.of("tea"));
  }

  @Test
  void withinARequestATextRunsOnceAndEachCallerGetsItsOwnCopy() {
    try (RequestVectors request = RequestVectors.open()) {
      float[] first = model.embed("tea");
      float[] second = model.embed("tea");
      float[] other = model.embed("coffee");
      assertThat(model.calls).containsExactly(List.of("tea"), List.of("coffee"));
      assertThat(second).containsExactly(first).isNotSameAs(first);
      assertThat(other).isNotEqualTo(first);
      first[0] = 42; // a caller scaling its vector changes nobody else's
      second[1] = 42;
      assertThat(model.embed("tea")).containsExactly(model.embed(List.of("tea")).get(0));
      assertThat(RequestVectors.held()).isEqualTo(2);
      // Batches are not remembered: the texts of one batch are the caller's to choose.
      model.embed(List.of("tea", "tea"));
      assertThat(model.calls.get(model.calls.size() - 1)).containsExactly("tea", "tea");
    }
    model.embed("tea");
    assertThat(model.calls.get(model.calls.size() - 1)).containsExactly("tea");
  }

  @Test
  void aRequestOpenedInsideAnotherIsPartOfItAndTheOuterCloseEndsIt() {
    try (RequestVectors outer = RequestVectors.open()) {
      model.embed("tea");
      try (RequestVectors inner = RequestVectors.open()) {
        model.embed("tea");
      }
      model.embed("tea");
      assertThat(model.calls).hasSize(1);
    }
    model.embed("tea");
    assertThat(model.calls).hasSize(2);
  }

  @Test
  void eachEmbedderRunsItsOwnModel() {
    CachingEmbedderTest.Recording another = new CachingEmbedderTest.Recording();
    try (RequestVectors request = RequestVectors.open()) {
      model.embed("tea");
      another.embed("tea");
      another.embed("tea");
    }
    assertThat(model.calls).hasSize(1);
    assertThat(another.calls).hasSize(1);
  }

  @Test
  void requestsOnOtherThreadsAreTheirOwn() throws Exception {
    try (RequestVectors request = RequestVectors.open()) {
      model.embed("tea");
      Thread t = new Thread(() -> model.embed("tea"));
      t.start();
      t.join();
      assertThat(model.calls).hasSize(2);
    }
  }

  @Test
  void aFailedCallRemembersNothing() {
    model.failures = 1;
    try (RequestVectors request = RequestVectors.open()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> model.embed("tea")).hasMessage("model unavailable");
      assertThat(RequestVectors.held()).isZero();
      assertThat(model.embed("tea")).containsExactly(model.embed(List.of("tea")).get(0));
    }
  }
}
