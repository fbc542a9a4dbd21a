package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

class SentenceSegmenterTest {
  private final SentenceSegmenter segmenter = new SentenceSegmenter();

  private List<String> split(String text, Language language) {
    return segmenter.split(text, language).stream().map(s -> s.of(text)).toList();
  }

  private List<String> en(String text) {
    return split(text, Language.EN);
  }

  private List<String> pt(String text) {
    return split(text, Language.PT);
  }

  @Test
  void plainSentences() {
    assertThat(en("The index is on disk. It needs no server! Does it scale? Yes."))
        .containsExactly("The index is on disk.", "It needs no server!", "Does it scale?", "Yes.");
    assertThat(pt("O índice fica no disco. Não precisa de servidor! Escala? Sim."))
        .containsExactly("O índice fica no disco.", "Não precisa de servidor!", "Escala?", "Sim.");
  }

  @Test
  void englishAbbreviationsDoNotEndSentences() {
    assertThat(en("Dr. Smith met Mr. Jones at 5 p.m. yesterday. They talked."))
        .containsExactly("Dr. Smith met Mr. Jones at 5 p.m. yesterday.", "They talked.");
    assertThat(en("Use a fruit, e.g. Apples or pears. Or i.e. Oranges only. Next."))
        .containsExactly("Use a fruit, e.g. Apples or pears.", "Or i.e. Oranges only.", "Next.");
    assertThat(en("This was shown by Smith et al. In their paper they used BM25."))
        .containsExactly("This was shown by Smith et al. In their paper they used BM25.");
    assertThat(en("See Fig. 3 for details. The U.S. Army agreed."))
        .containsExactly("See Fig. 3 for details.", "The U.S. Army agreed.");
  }

  @Test
  void portugueseAbbreviationsDoNotEndSentences() {
    assertThat(pt("O Sr. Silva chegou cedo. A Sra. Costa saiu tarde."))
        .containsExactly("O Sr. Silva chegou cedo.", "A Sra. Costa saiu tarde.");
    assertThat(pt("A Dra. Ana Souza confirmou. Veja a pág. 12 do relatório. Depois leia o cap. 3."))
        .containsExactly("A Dra. Ana Souza confirmou.", "Veja a pág. 12 do relatório.", "Depois leia o cap. 3.");
    assertThat(pt("O Prof. Lima mora na Av. Paulista, nº 100. Ele leciona desde 1990."))
        .containsExactly("O Prof. Lima mora na Av. Paulista, nº 100.", "Ele leciona desde 1990.");
  }

  /**
   * The abbreviations of both languages used to apply to every text, so English sentences ending in
   * "out", "set", "art" or "no" (Portuguese months, "artigo", "número") were not split.
   */
  @Test
  void regressionPortugueseAbbreviationsSwallowedEnglishSentenceEnds() {
    assertThat(en("He went out. Then he came back."))
        .containsExactly("He went out.", "Then he came back.");
    assertThat(en("We tested the whole data set. Results follow."))
        .containsExactly("We tested the whole data set.", "Results follow.");
    assertThat(en("It is modern art. Nobody disagrees."))
        .containsExactly("It is modern art.", "Nobody disagrees.");
    assertThat(en("The answer is no. We tried again."))
        .containsExactly("The answer is no.", "We tried again.");
    // Text of unknown language keeps both languages' abbreviations: it splits less, never wrongly at "Sra."
    assertThat(split("He went out. Then he came back.", Language.UNKNOWN))
        .containsExactly("He went out. Then he came back.");
    assertThat(split("A Sra. Costa saiu. O Mr. Jones ficou.", Language.UNKNOWN))
        .containsExactly("A Sra. Costa saiu.", "O Mr. Jones ficou.");
  }

  @Test
  void abbreviationsBeforeNumbersHoldOnlyBeforeANumber() {
    assertThat(en("See No. 5 and Vol. 2 of the series. Fig. 3 shows it."))
        .containsExactly("See No. 5 and Vol. 2 of the series.", "Fig. 3 shows it.");
    assertThat(pt("Conforme o Art. 5º da Constituição, todos são iguais. O Cap. IV trata disso."))
        .containsExactly("Conforme o Art. 5º da Constituição, todos são iguais.", "O Cap. IV trata disso.");
    assertThat(pt("Consulte o art. 12 e a pág. 40. Depois responda."))
        .containsExactly("Consulte o art. 12 e a pág. 40.", "Depois responda.");
  }

  @Test
  void portugueseMonthAbbreviationsStillHoldInPortuguese() {
    assertThat(pt("A reunião de 10 de out. Foi adiada.")).containsExactly("A reunião de 10 de out. Foi adiada.");
    assertThat(pt("O Sr. Silva e a Dra. Lima chegaram. Todos sentaram."))
        .containsExactly("O Sr. Silva e a Dra. Lima chegaram.", "Todos sentaram.");
  }

  @Test
  void decimalsAndNumbers() {
    assertThat(en("Pi is about 3.14 and e is 2.718. Both are irrational."))
        .containsExactly("Pi is about 3.14 and e is 2.718.", "Both are irrational.");
    assertThat(pt("O valor subiu 3,5% em 2023. Em 2024 caiu."))
        .containsExactly("O valor subiu 3,5% em 2023.", "Em 2024 caiu.");
    assertThat(en("He died in 1973. 42 people came."))
        .containsExactly("He died in 1973.", "42 people came.");
  }

  @Test
  void initials() {
    assertThat(en("J. R. R. Tolkien wrote The Hobbit. It was published in 1937."))
        .containsExactly("J. R. R. Tolkien wrote The Hobbit.", "It was published in 1937.");
    assertThat(pt("O livro de C. S. Lewis é curto. Li em dois dias."))
        .containsExactly("O livro de C. S. Lewis é curto.", "Li em dois dias.");
  }

  @Test
  void ellipsisAndRunsOfTerminators() {
    assertThat(en("Wait... What happened? Really?! Yes!!! Fine."))
        .containsExactly("Wait...", "What happened?", "Really?!", "Yes!!!", "Fine.");
    assertThat(pt("Espere… Agora sim. Sério?! Sim."))
        .containsExactly("Espere…", "Agora sim.", "Sério?!", "Sim.");
  }

  @Test
  void quotesAndBracketsAfterTheTerminatorStayWithTheSentence() {
    assertThat(en("He said \"Stop.\" Then he left. (It was late.) Everyone slept."))
        .containsExactly("He said \"Stop.\"", "Then he left.", "(It was late.)", "Everyone slept.");
    assertThat(pt("Ela perguntou: “Você vem?” Eu disse que sim. Ele gritou: «Corram!» E correram."))
        .containsExactly("Ela perguntou: “Você vem?”", "Eu disse que sim.", "Ele gritou: «Corram!»", "E correram.");
  }

  @Test
  void lowerCaseAfterAPeriodAfterANumberOrAbbreviationDoesNotStartASentence() {
    assertThat(en("Version 2. is not a sentence end")).containsExactly("Version 2. is not a sentence end");
    assertThat(en("Bring pens, paper, etc. and a laptop, e.g. a small one, by 5 p.m. tomorrow"))
        .containsExactly("Bring pens, paper, etc. and a laptop, e.g. a small one, by 5 p.m. tomorrow");
    assertThat(pt("Aberto de 3ª a sáb. e dom. às 16h")).containsExactly("Aberto de 3ª a sáb. e dom. às 16h");
  }

  /** Web text often starts sentences in lower case; a period after an ordinary word still ends one. */
  @Test
  void lowerCaseAfterAPeriodOrQuestionMarkAfterAWordStartsASentence() {
    assertThat(en("The library is closed. it is now a cafe. highly recommended!"))
        .containsExactly("The library is closed.", "it is now a cafe.", "highly recommended!");
    assertThat(en("how are they alike? and different?")).containsExactly("how are they alike?", "and different?");
  }

  @Test
  void blankLinesEndSentences() {
    assertThat(en("First paragraph without a period\n\nSecond paragraph\n \nThird"))
        .containsExactly("First paragraph without a period", "Second paragraph", "Third");
  }

  @Test
  void singleLineBreaksInsideASentenceAreKept() {
    assertThat(en("This sentence is wrapped\nover two lines. Next."))
        .containsExactly("This sentence is wrapped\nover two lines.", "Next.");
  }

  @Test
  void markdownHeadingsAndLists() {
    String md = "# Installation\nRun the installer and wait\n## Steps\n- download the file\n- run it\n* check it\n\n> a quote";
    assertThat(en(md)).containsExactly(
        "# Installation", "Run the installer and wait", "## Steps", "- download the file", "- run it",
        "* check it", "> a quote");
  }

  @Test
  void regressionNumberedListItemWasCutAfterItsNumber() {
    assertThat(en("Steps:\n1. Download the file\n2. Run it\n3. Check the output"))
        .containsExactly("Steps:", "1. Download the file", "2. Run it", "3. Check the output");
    assertThat(pt("Passos:\n1. Baixe o arquivo\n2. Execute-o"))
        .containsExactly("Passos:", "1. Baixe o arquivo", "2. Execute-o");
  }

  @Test
  void crlfIsTreatedLikeLf() {
    assertThat(en("First line.\r\nSecond line\r\n\r\nNew paragraph\r\n"))
        .containsExactly("First line.", "Second line", "New paragraph");
    assertThat(en("- one\r\n- two\r\n"))
        .containsExactly("- one", "- two");
  }

  @Test
  void aHeadlineRunIntoItsLeadEndsBeforeACapitalisedSentenceOpener() {
    assertThat(pt("Festival de Locarno começa hoje Mais de 20 filmes estão em competição."))
        .containsExactly("Festival de Locarno começa hoje", "Mais de 20 filmes estão em competição.");
    assertThat(pt("Vítor Martins em Rabat O secretário de Estado chegou ontem."))
        .containsExactly("Vítor Martins em Rabat", "O secretário de Estado chegou ontem.");
    assertThat(en("Lovely cottage This cottage is a charming place to stay."))
        .containsExactly("Lovely cottage", "This cottage is a charming place to stay.");
  }

  @Test
  void titlesAndNamesWithACapitalisedFunctionWordStayWhole() {
    assertThat(pt("Segundo o jornal O Globo, a inflação caiu. Falou com Maria Da Silva ontem."))
        .containsExactly("Segundo o jornal O Globo, a inflação caiu.", "Falou com Maria Da Silva ontem.");
    assertThat(en("I read it in The Economist yesterday and in a book of The Beatles"))
        .containsExactly("I read it in The Economist yesterday and in a book of The Beatles");
  }

  @Test
  void separatorsEmoticonsAndClosingFormulasEndSentences() {
    assertThat(en("Please find the file attached ===== Confidential notice follows"))
        .containsExactly("Please find the file attached =====", "Confidential notice follows");
    assertThat(en("See you at the party :) Bring snacks")).containsExactly("See you at the party :)", "Bring snacks");
    assertThat(en("Kind regards, Debra Perlingiere")).containsExactly("Kind regards,", "Debra Perlingiere");
    assertThat(pt("Biotecnologia -- busca novos produtos")).containsExactly("Biotecnologia -- busca novos produtos");
  }

  @Test
  void aLongQuotationAfterAColonIsASentenceInPortuguese() {
    assertThat(pt("Explica o ministro: «Os principais clientes do serviço são pessoas que viajam a trabalho.»"))
        .containsExactly("Explica o ministro:", "«Os principais clientes do serviço são pessoas que viajam a trabalho.»");
    assertThat(en("The minister said: \"Our main clients are people who travel for work every week.\""))
        .containsExactly("The minister said: \"Our main clients are people who travel for work every week.\"");
  }

  @Test
  void textWithoutFinalPunctuationIsOneSentence() {
    assertThat(en("no punctuation at all")).containsExactly("no punctuation at all");
    assertThat(pt("  Qual é a capital do Brasil  ")).containsExactly("Qual é a capital do Brasil");
  }

  @Test
  void emptyAndWhitespaceOnlyTextHasNoSentences() {
    assertThat(segmenter.split("", Language.EN)).isEmpty();
    assertThat(segmenter.split(" \n\r\n\t\u00A0 ", Language.PT)).isEmpty();
  }

  @Test
  void spansExcludeSurroundingWhitespace() {
    String text = "  \u00A0First one.   Second one!\n\n  Third  ";
    List<Span> spans = segmenter.split(text, Language.EN);
    assertThat(spans).containsExactly(new Span(3, 13), new Span(16, 27), new Span(31, 36));
  }

  @Test
  void emojiAndCjkAreKeptInsideSentences() {
    assertThat(en("I love it 😀. Next one 👍🏽! 東京は大きい。Done."))
        .containsExactly("I love it 😀.", "Next one 👍🏽!", "東京は大きい。Done.");
  }
}
