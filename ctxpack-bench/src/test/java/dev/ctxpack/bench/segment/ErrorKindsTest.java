package dev.ctxpack.bench.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.bench.segment.ErrorKinds.Kind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorKindsTest {
  @Test
  void missedBoundariesByHowTheGoldSentenceEnds() {
    String t = "Kay Mann Will you come? yes i will. He said \"Go.\" Then (see this. That) ok: Next";
    assertThat(ErrorKinds.missed(t, 0, 9)).isEqualTo(new Kind(ErrorKinds.NO_TERMINAL, "word"));
    assertThat(ErrorKinds.missed(t, 9, 24)).isEqualTo(new Kind(ErrorKinds.TERMINAL, "next lower-case after ! ?"));
    assertThat(ErrorKinds.missed(t, 24, 36)).isEqualTo(new Kind(ErrorKinds.TERMINAL, "other"));
    assertThat(ErrorKinds.missed(t, 36, 50)).isEqualTo(new Kind(ErrorKinds.QUOTE_BRACKET, "closer after terminator"));
    assertThat(ErrorKinds.missed(t, 50, 66)).isEqualTo(new Kind(ErrorKinds.QUOTE_BRACKET, "inside quote/bracket"));
    assertThat(ErrorKinds.missed(t, 66, t.indexOf("Next"))).isEqualTo(new Kind(ErrorKinds.NO_TERMINAL, "colon/semicolon"));
    assertThat(ErrorKinds.missed("Mr. Frost came.", 0, 4)).isEqualTo(new Kind(ErrorKinds.TERMINAL, "abbreviation-like"));
    assertThat(ErrorKinds.missed("Wait... Go", 0, 8)).isEqualTo(new Kind(ErrorKinds.TERMINAL, "ellipsis"));
  }

  @Test
  void falseBoundariesByTheTextBeforeThem() {
    assertThat(ErrorKinds.falseBoundary("VISAKHA GASES PVT. LTD.", 19).kind()).isEqualTo(ErrorKinds.ABBREVIATION);
    assertThat(ErrorKinds.falseBoundary("Vol. 3. Chapter", 8).kind()).isEqualTo(ErrorKinds.NUMBER);
    assertThat(ErrorKinds.falseBoundary("Nice people... I hear", 15)).isEqualTo(new Kind(ErrorKinds.ELLIPSIS, "..."));
    assertThat(ErrorKinds.falseBoundary("Good food.. But", 12)).isEqualTo(new Kind(ErrorKinds.ELLIPSIS, ".."));
    assertThat(ErrorKinds.falseBoundary("em ... Boliqueime", 7)).isEqualTo(new Kind(ErrorKinds.ELLIPSIS, "..."));
    assertThat(ErrorKinds.falseBoundary("the phrase.' And", 13)).isEqualTo(new Kind(ErrorKinds.OTHER, "period"));
    assertThat(ErrorKinds.falseBoundary("Dial:? 203", 7)).isEqualTo(new Kind(ErrorKinds.OTHER, "! ?"));
    assertThat(ErrorKinds.falseBoundary("a b", 2)).isEqualTo(new Kind(ErrorKinds.OTHER, "no punctuation"));
  }

  @Test
  void abbreviationLikeWords() {
    for (String w : List.of("Mr", "Dr", "Ltd", "PVT", "U.S", "a.m", "J", "etc", "Capt")) {
      assertThat(ErrorKinds.abbreviationLike(w)).as(w).isTrue();
    }
    for (String w : List.of("phrase", "Bush", "1990", "", "e-mail")) {
      assertThat(ErrorKinds.abbreviationLike(w)).as(w).isFalse();
    }
  }

  @Test
  void candidateRulesCountGoldAndNotGoldPositionsTheyChange() {
    String t = "is it free? because i read it. ok Dr. no. He said: «Sim.» Wait... So";
    int because = t.indexOf("because");
    int ok = t.indexOf("ok");
    int quote = t.indexOf('«');
    int so = t.indexOf("So");
    WhatIf.Rule bang = WhatIf.RULES.get(0);
    WhatIf.Rule period = WhatIf.RULES.get(1);
    WhatIf.Rule colonQuote = WhatIf.RULES.get(3);
    WhatIf.Rule ellipsis = WhatIf.RULES.get(4);
    assertThat(WhatIf.fires(bang, t)).containsExactly(because);
    // "Dr. no" is skipped: abbreviation-like; "no. He" is not before lower case.
    assertThat(WhatIf.fires(period, t)).containsExactly(ok);
    assertThat(WhatIf.fires(colonQuote, t)).containsExactly(quote);
    assertThat(WhatIf.effect(bang, t, Set.of(because), Set.of())).isEqualTo(new WhatIf.Effect(1, 0));
    assertThat(WhatIf.effect(bang, t, Set.of(because), Set.of(because))).isEqualTo(new WhatIf.Effect(0, 0));
    assertThat(WhatIf.effect(period, t, Set.of(), Set.of())).isEqualTo(new WhatIf.Effect(0, 1));
    assertThat(WhatIf.effect(ellipsis, t, Set.of(), Set.of(so))).isEqualTo(new WhatIf.Effect(0, 1));
    Boundaries.Score now = new Boundaries.Score(10, 2, 5);
    assertThat(WhatIf.apply(bang, now, new WhatIf.Effect(3, 1))).isEqualTo(new Boundaries.Score(13, 3, 2));
    assertThat(WhatIf.apply(ellipsis, now, new WhatIf.Effect(1, 2))).isEqualTo(new Boundaries.Score(9, 0, 6));
  }
}
