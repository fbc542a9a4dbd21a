package dev.ctxpack.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.assemble.MemoryStores;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How specs read, and what a spec no backend on the classpath handles is told (core alone has none). */
class IndexSpecTest {
  @Test
  void aBarePathIsALuceneDirectoryAndASchemeNamesItsBackend() {
    for (String path : List.of("/tmp/my-index", "./my-index", "my-index", "C:\\indexes\\docs", "../a:b")) {
      assertThat(IndexSpec.parse(path)).as(path).isEqualTo(new IndexSpec("lucene", path));
    }
    assertThat(IndexSpec.parse("lucene:./my-index")).isEqualTo(IndexSpec.parse("./my-index"));
    assertThat(IndexSpec.parse("LUCENE:/x")).isEqualTo(new IndexSpec("lucene", "/x"));
    assertThat(IndexSpec.parse("solr+zk://zk1:2181/docs")).isEqualTo(new IndexSpec("solr+zk", "//zk1:2181/docs"));
    assertThat(IndexSpec.parse("solr:http://solr:8983/solr/docs")).isEqualTo(new IndexSpec("solr", "http://solr:8983/solr/docs"));
  }

  @Test
  void aSpecIsWrittenAsAUserWritesItAndReadsBack() {
    for (String text : List.of("/tmp/my-index", "solr:http://h/docs", "solr+zk://zk1/docs")) {
      assertThat(IndexSpec.parse(text).toString()).isEqualTo(text);
    }
    assertThat(IndexSpec.parse("lucene:/tmp/x").toString()).isEqualTo("/tmp/x");
    // A directory whose name looks like a scheme keeps its scheme when written.
    IndexSpec odd = IndexSpec.ofPath(Path.of("idx:v2"));
    assertThat(odd.toString()).isEqualTo("lucene:idx:v2");
    assertThat(IndexSpec.parse(odd.toString())).isEqualTo(odd);
  }

  @Test
  void aBlankSpecOrLocationIsRefusedByName() {
    assertThatThrownBy(() -> IndexSpec.parse(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    assertThatThrownBy(() -> IndexSpec.parse("lucene:")).hasMessageContaining("'lucene:' names no location");
    assertThatThrownBy(() -> new IndexSpec("Solr", "x")).hasMessageContaining("'Solr'");
  }

  @Test
  void aSchemeNoProviderHandlesNamesTheModuleToAdd() {
    assertThatThrownBy(() -> Indexes.open("solr:http://solr:8983/solr/docs")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown index backend 'solr' in 'solr:http://solr:8983/solr/docs': add the ctxpack-solr module to the classpath");
    assertThatThrownBy(() -> Indexes.openExisting("solr+zk://zk1/docs"))
        .hasMessageStartingWith("unknown index backend 'solr+zk' in 'solr+zk://zk1/docs': add the ctxpack-solr module");
    assertThatThrownBy(() -> MemoryStores.beside(IndexSpec.parse("solr:http://h/docs")))
        .hasMessageStartingWith("unknown memory store backend 'solr'");
  }
}
