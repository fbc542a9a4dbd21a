package dev.ctxpack.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.chunk.Chunker;
import dev.ctxpack.chunk.Chunker.SectionMark;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlLoaderTest {
  @TempDir Path dir;
  private final HtmlLoader loader = new HtmlLoader();

  private LoadedDocument page(String resource) throws Exception {
    Path f = dir.resolve(resource);
    try (InputStream in = getClass().getResourceAsStream("html/" + resource)) {
      Files.write(f, in.readAllBytes());
    }
    List<LoadedDocument> docs = loader.load(f, Files.readAllBytes(f));
    assertThat(docs).hasSize(1);
    return docs.get(0);
  }

  @Test
  void portugueseNewsPageKeepsTheArticleAndDropsBoilerplateByClassHints() throws Exception {
    LoadedDocument d = page("noticia-pt.html");
    assertThat(d.title()).isEqualTo("Chuvas em Recife: prefeitura amplia alerta");
    assertThat(d.replacedChars()).isZero();
    String t = d.text();
    assertThat(t).contains("A prefeitura do Recife ampliou nesta segunda-feira o alerta",
        "o acumulado passou de 120 milímetros", "Os abrigos funcionam em escolas municipais");
    assertThat(t).doesNotContain("cookies", "Política", "Início", "Compartilhar", "Leia também", "Comentário",
        "Anúncio", "Mais lidas", "Buscar", "direitos reservados", "escondido", "tracking", "color: red");
    // Paragraphs apart, list items and table rows on lines of their own, cells joined.
    assertThat(t).contains("Defesa Civil recomendou que moradores de encostas procurem abrigos.\n\nOnde buscar ajuda");
    assertThat(t).contains("\nEscola Municipal Santa Luzia, no bairro do Ibura\nEscola Municipal Poeta");
    assertThat(t).contains("\nServiço | Número\nDefesa Civil | 199\nBombeiros | 193");
    assertThat(d.sections()).extracting(SectionMark::path).containsExactly(
        "Chuvas em Recife: prefeitura amplia alerta",
        "Chuvas em Recife: prefeitura amplia alerta > Onde buscar ajuda",
        "Chuvas em Recife: prefeitura amplia alerta > Onde buscar ajuda > Telefones");
    for (SectionMark m : d.sections()) {
      String heading = m.path().substring(m.path().lastIndexOf(" > ") < 0 ? 0 : m.path().lastIndexOf(" > ") + 3);
      assertThat(t.substring(m.start())).startsWith(heading);
    }
    assertThat(Chunker.sectionAt(d.sections(), t.indexOf("Bombeiros"))).endsWith("> Telefones");
  }

  @Test
  void englishDocsPageUsesMainAndKeepsPreformattedText() throws Exception {
    LoadedDocument d = page("guide-en.html");
    assertThat(d.title()).isEqualTo("Configuring the cache - Example Docs");
    String t = d.text();
    assertThat(t).startsWith("Configuring the cache\n\nUpdated March 2024\n\nThe cache keeps recently used entries");
    assertThat(t).contains("cache:\n  maximumSize: 10000\n  expireAfterWrite: 10m");
    assertThat(t).contains("written.\nExpired entries are removed lazily");
    assertThat(t).doesNotContain("Guide", "cookies", "On this page", "Sponsored", "hidden note", "helpful",
        "Privacy", "JavaScript");
    assertThat(d.sections()).extracting(SectionMark::path)
        .containsExactly("Configuring the cache", "Configuring the cache > Size", "Configuring the cache > Expiry");
  }

  @Test
  void withoutMainOrArticleTheDensestBlockWins() throws Exception {
    String para = "<p>Rivers carry sediment downstream, and the delta grows each year as the water slows, "
        + "spreading sand and silt over the plain.</p>";
    String html = "<html><body><div class=wrap>"
        + "<div id=links><a href=/1>One</a> <a href=/2>Two</a> <a href=/3>Three and a long link text here</a></div>"
        + "<div class=x>" + para.repeat(4) + "</div>"
        + "<div class=y><p>Short note.</p></div></div></body></html>";
    Path f = dir.resolve("plain.html");
    Files.writeString(f, html);
    LoadedDocument d = loader.load(f).get(0);
    assertThat(d.text()).startsWith("Rivers carry sediment").doesNotContain("Three and a long link");
    assertThat(d.text().split("\n\n")).hasSize(4);
    assertThat(d.title()).isEqualTo("plain");
  }

  @Test
  void charsetFromMetaOrBomAndInvalidBytesCounted() throws Exception {
    Path latin = dir.resolve("latin.html");
    Files.write(latin, "<meta charset=iso-8859-1><p>ação – coração</p>".getBytes("windows-1252"));
    assertThat(loader.load(latin).get(0).text()).isEqualTo("ação – coração");
    Path bom = dir.resolve("bom.html");
    byte[] body = "<p>olá</p>".getBytes(StandardCharsets.UTF_16LE);
    byte[] withBom = new byte[body.length + 2];
    withBom[0] = (byte) 0xFF;
    withBom[1] = (byte) 0xFE;
    System.arraycopy(body, 0, withBom, 2, body.length);
    Files.write(bom, withBom);
    assertThat(loader.load(bom).get(0).text()).isEqualTo("olá");
    Path broken = dir.resolve("broken.html");
    byte[] ok = "<p>café, não, coração, ação, informação, já".getBytes(StandardCharsets.UTF_8);
    byte[] bad = java.util.Arrays.copyOf(ok, ok.length + 1);
    bad[bad.length - 1] = (byte) 0xFF;
    Files.write(broken, bad);
    Files.write(broken, "</p>".getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
    LoadedDocument d = loader.load(broken).get(0);
    assertThat(d.text()).isEqualTo("café, não, coração, ação, informação, já\uFFFD");
    assertThat(d.replacedChars()).isEqualTo(1);
  }

  @Test
  void hundredThousandNestedDivsAreParsedWithoutRecursion() throws Exception {
    int depth = 100_000;
    StringBuilder sb = new StringBuilder(depth * 12 + 100);
    sb.append("<html><body>");
    for (int i = 0; i < depth; i++) sb.append("<div>");
    sb.append("<p>deep text at the bottom of the nest</p>");
    for (int i = 0; i < depth; i++) sb.append("</div>");
    sb.append("<p>after the nest</p></body></html>");
    Path f = dir.resolve("nested.html");
    Files.writeString(f, sb);
    // Through the guard, as ingest loads it: a StackOverflowError would come back as a failure.
    List<LoadedDocument> docs = new LoadGuard(LoadLimits.DEFAULTS).load(loader, f);
    assertThat(docs.get(0).text()).contains("deep text at the bottom of the nest");
  }
}
