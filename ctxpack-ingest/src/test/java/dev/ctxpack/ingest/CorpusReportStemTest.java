package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The file-name stem that tells versions of one document apart from unrelated files. */
class CorpusReportStemTest {
  @Test
  void versionWordsAndExtensionsAreStripped() {
    for (String p : new String[] {"/docs/report.md", "/docs/report_v2.md", "/old/Report (1).md", "/docs/report-old.txt",
        "https://example.org/site/report-final.html?x=1", "C:\\docs\\report.v3.1.pdf", "/docs/report 2024.md"}) {
      assertThat(CorpusReport.stem(p)).as(p).isEqualTo("report");
    }
  }

  @Test
  void differentNamesKeepDifferentStemsAndANumberAloneIsKept() {
    assertThat(CorpusReport.stem("/docs/regulamento-graduacao.md")).isEqualTo("regulamento-graduacao");
    assertThat(CorpusReport.stem("/docs/edital.md")).isNotEqualTo(CorpusReport.stem("/docs/editais.md"));
    assertThat(CorpusReport.stem("/docs/2024.md")).isEqualTo("2024");
    assertThat(CorpusReport.stem("")).isEmpty();
  }
}
