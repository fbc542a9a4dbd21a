package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.ingest.clean.CleanOptions;
import dev.ctxpack.ingest.clean.Cleaned;
import dev.ctxpack.ingest.clean.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 8e: running-head cleaning compared lines with their digits ignored, so a 2,000-page
 * PDF whose pages open and close with table rows alike but for their figures lost 12,000 lines of
 * content. Lines alike but for digits are now running heads only where their digits count with the
 * pages; the table rows stay, and real running heads and page numbers still go.
 */
class DigitOnlyDifferencesNotRunningHeadTest {
  private static final int PAGES = 30;

  @TempDir Path dir;

  @Test
  void tableRowsAlikeButForTheirFiguresStayWhileRunningHeadsGo() throws Exception {
    SplittableRandom r = new SplittableRandom(8);
    List<String> rows = new ArrayList<>();
    String[] pages = new String[PAGES];
    for (int p = 0; p < PAGES; p++) {
      StringBuilder page = new StringBuilder("Relatório anual 2023 — " + (p + 3) + "\n");
      for (int k = 0; k < 6; k++) {
        String row = "Linha " + (1000 + r.nextInt(9000)) + ": total de " + r.nextInt(100) + "." + (100 + r.nextInt(900))
            + " unidades";
        rows.add(row);
        page.append(row).append('\n');
      }
      page.append("Page ").append(p + 1).append(" of ").append(PAGES);
      pages[p] = page.toString();
    }
    Path f = Files.write(dir.resolve("relatorio.pdf"), TestPdfs.pdf("Relatório", pages));
    LoadedDocument loaded = new LoadGuard(LoadLimits.DEFAULTS).load(new PdfLoader(), f).get(0);
    assertThat(loaded.pages()).hasSize(PAGES);

    Cleaned c = new Cleaner(CleanOptions.defaults()).clean(loaded, null);

    for (String row : rows) assertThat(c.doc().text()).contains(row);
    assertThat(c.doc().text()).doesNotContain("Relatório anual").doesNotContain("Page ");
    assertThat(c.counts()).containsEntry("page-header", PAGES).containsEntry("page-footer", PAGES);
  }

  @Test
  void aHeadThatRepeatsWithTheSameFiguresIsStillARunningHead() throws Exception {
    String[] pages = new String[PAGES];
    for (int p = 0; p < PAGES; p++) {
      pages[p] = "Relatório anual 2023\nA receita do trimestre " + (p * 37 % 101) + " foi descrita em detalhe nesta página.\n"
          + "Os custos caíram em " + (p * 7 % 13) + " regiões, e o resultado ficou acima do previsto.\n"
          + "As metas para o próximo período foram revistas pela comissão " + (p * 53 % 97) + ".\n" + "— " + (p + 1) + " —";
    }
    Path f = Files.write(dir.resolve("anual.pdf"), TestPdfs.pdf(null, pages));
    Cleaned c = new Cleaner(CleanOptions.defaults()).clean(new LoadGuard(LoadLimits.DEFAULTS).load(new PdfLoader(), f).get(0), null);
    assertThat(c.doc().text()).doesNotContain("Relatório anual 2023").doesNotContain("— 1");
    for (int p = 0; p < PAGES; p++) {
      assertThat(c.doc().text()).contains("A receita do trimestre " + (p * 37 % 101) + " foi descrita",
          "comissão " + (p * 53 % 97) + ".");
    }
    assertThat(c.counts()).containsEntry("page-header", PAGES).containsEntry("page-footer", PAGES);
  }
}
