package dev.ctxpack.pack;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Passage;
import dev.ctxpack.model.Source;
import dev.ctxpack.model.Span;
import dev.ctxpack.pii.PiiType;
import dev.ctxpack.pii.RedactionOptions;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourceRedactorTest {
  private static final String DOC = "Cadastro de Ana, CPF 529.982.247-25, e-mail ana@example.org. Outro parágrafo sem dados."
      + " Contato do suporte: ana@example.org ou (11) 98765-4321; conta DE89 3704 0044 0532 0130 00.";

  private static Passage.Piece piece(int start, int end) {
    return new Passage.Piece("d1", new Span(start, end), DOC.substring(start, end));
  }

  private static Source source(String label, List<Passage.Piece> pieces, List<Source.Dropped> dropped) {
    return new Source(label, "d1", "t", "", "", 0, "", List.of(new Source.DocSpan("d1", 0, DOC.length())),
        Passage.join(pieces), "p", pieces, dropped);
  }

  @Test
  void piecesAreRedactedApartNumberedAcrossSourcesAndLocatedInTheDocument() {
    int cut = DOC.indexOf(" Outro");
    int second = DOC.indexOf("Contato");
    Source a = source("S1", List.of(piece(0, cut), piece(second, DOC.length())),
        List.of(new Source.Dropped("d1", cut + 1, second - 1, DOC.substring(cut + 1, second - 1), "off-topic", 0.1)));
    Source b = source("S2", List.of(piece(second, DOC.length())),
        List.of(new Source.Dropped("d1", 0, cut, DOC.substring(0, cut), "off-topic", 0.1)));
    List<Source> out = SourceRedactor.of(RedactionOptions.all()).all(List.of(a, b));
    Source ra = out.get(0);
    assertThat(ra.text()).isEqualTo("Cadastro de Ana, CPF [CPF_1], e-mail [EMAIL_1]." + Passage.GAP
        + "Contato do suporte: [EMAIL_1] ou [PHONE_1]; conta [IBAN_1].");
    assertThat(out.get(1).text()).isEqualTo("Contato do suporte: [EMAIL_1] ou [PHONE_1]; conta [IBAN_1].");
    for (Source.Redaction r : ra.redactions()) {
      assertThat(r.docId()).isEqualTo("d1");
      assertThat(PiiType.parse(r.type()).label()).isEqualTo(r.placeholder().substring(1, r.placeholder().indexOf('_')));
    }
    assertThat(ra.redactions()).extracting(r -> DOC.substring(r.start(), r.end()))
        .containsExactly("529.982.247-25", "ana@example.org", "ana@example.org", "(11) 98765-4321", "DE89 3704 0044 0532 0130 00");
    assertThat(ra.spans()).isEqualTo(a.spans());
    assertThat(ra.pieces()).isEqualTo(a.pieces());
    // A cut sentence without PII stays; one with PII is left out.
    assertThat(ra.dropped()).hasSize(1);
    assertThat(out.get(1).dropped()).isEmpty();

    // Every character outside a placeholder and the gap locates the same character of the document.
    String text = ra.text();
    int gap = text.indexOf(Passage.GAP);
    boolean[] placeholder = new boolean[text.length()];
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[[A-Z]+_\\d+]").matcher(text);
    while (m.find()) for (int k = m.start(); k < m.end(); k++) placeholder[k] = true;
    for (int i = 0; i < text.length(); i++) {
      Source.Location loc = ra.locate(i);
      boolean inPlaceholder = placeholder[i];
      if (i >= gap && i < gap + Passage.GAP.length()) {
        assertThat(loc.offset()).isEqualTo(cut);
      } else if (!inPlaceholder) {
        assertThat(DOC.charAt(loc.offset())).as("offset %d", i).isEqualTo(text.charAt(i));
      }
    }
    assertThat(ra.locate(text.indexOf("[IBAN_1]") + 3).offset()).isEqualTo(DOC.indexOf("DE89"));
    assertThat(ra.locate(text.length()).offset()).isEqualTo(DOC.length());
  }

  @Test
  void offOrOtherKindsLeaveTheSourceAlone() {
    Source a = source("S1", List.of(piece(0, DOC.length())), List.of());
    assertThat(SourceRedactor.of(RedactionOptions.off()).all(List.of(a))).containsExactly(a);
    Source only = SourceRedactor.of(new RedactionOptions(EnumSet.of(PiiType.IBAN))).all(List.of(a)).get(0);
    assertThat(only.text()).contains("529.982.247-25", "ana@example.org", "[IBAN_1]");
    assertThat(only.redactions()).hasSize(1);
  }

  @Test
  void theTraceKeepsNoValues() {
    dev.ctxpack.model.Trace t = new dev.ctxpack.model.Trace();
    t.add(Stage.DEDUP, Action.KEEP, "near:guard:number", List.of("c2"), "c1", 0,
        "near match of c1 (0.97) kept apart by the guard: number differs: 529.982.247 25 vs 529.982.247 24");
    t.add(Stage.DEDUP, Action.KEEP, "near:guard:negation", List.of("c3"), "c1", 0, "negation differs in unaligned sentences: não vs (none)");
    t.add(Stage.RETRIEVE, Action.SKIP, "x", List.of(), "", 0, "asked by ana@example.org from 192.168.0.1");
    List<dev.ctxpack.model.Decision> out = SourceRedactor.of(RedactionOptions.all()).scrub(t).decisions();
    assertThat(out.get(0).reason()).isEqualTo("near match of c1 (0.97) kept apart by the guard: number differs (values withheld: PII redaction is on)");
    assertThat(out.get(1)).isEqualTo(t.decisions().get(1));
    assertThat(out.get(2).reason()).isEqualTo("asked by [EMAIL] from [IP]");
    assertThat(SourceRedactor.of(RedactionOptions.off()).scrub(t)).isSameAs(t);
  }
}
