package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.testing.RandomText;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class SentenceSegmenterPropertiesTest {
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  @Provide
  Arbitrary<String> texts() {
    return RandomText.text(200);
  }

  @Property(tries = 500)
  void spansAreIncreasingTrimmedAndCoverEveryNonWhitespaceChar(@ForAll("texts") String text, @ForAll Language language) {
    List<Span> spans = segmenter.split(text, language);
    boolean[] covered = new boolean[text.length()];
    int previousEnd = 0;
    for (Span s : spans) {
      assertThat(s.start()).as("span %s starts before the previous end %d", s, previousEnd).isGreaterThanOrEqualTo(previousEnd);
      assertThat(s.end()).as("span %s", s).isGreaterThan(s.start()).isLessThanOrEqualTo(text.length());
      assertThat(RandomText.isSpace(text.charAt(s.start()))).as("span %s starts with whitespace", s).isFalse();
      assertThat(RandomText.isSpace(text.charAt(s.end() - 1))).as("span %s ends with whitespace", s).isFalse();
      assertThat(RandomText.splitsSurrogatePair(text, s.start())).as("span %s starts inside a surrogate pair", s).isFalse();
      assertThat(RandomText.splitsSurrogatePair(text, s.end())).as("span %s ends inside a surrogate pair", s).isFalse();
      for (int i = s.start(); i < s.end(); i++) covered[i] = true;
      previousEnd = s.end();
    }
    for (int i = 0; i < text.length(); i++) {
      if (!RandomText.isSpace(text.charAt(i))) {
        assertThat(covered[i]).as("char %d (U+%04X) is in no sentence", i, (int) text.charAt(i)).isTrue();
      }
    }
  }

  @Property(tries = 200)
  void segmentationIsDeterministic(@ForAll("texts") String text) {
    assertThat(segmenter.split(text, Language.PT)).isEqualTo(new SentenceSegmenter().split(text, Language.PT));
  }
}
