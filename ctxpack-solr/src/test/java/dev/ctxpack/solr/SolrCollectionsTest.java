package dev.ctxpack.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.Index;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.index.Indexes;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.Document;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.util.ContentStreamBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Collections as code: init creates ctxpack's layout once, and a collection of another schema or dimension is refused. */
class SolrCollectionsTest {
  private final List<IndexSpec> made = new ArrayList<>();

  private IndexSpec spec(String hint) {
    IndexSpec s = SolrTestCluster.newSpec(hint);
    made.add(s);
    return s;
  }

  @AfterEach
  void deleteCollections() throws Exception {
    var client = SolrTestCluster.get().getSolrClient();
    for (IndexSpec s : made) {
      String c = SolrLocation.parse(s).collection();
      if (CollectionAdminRequest.listCollections(client).contains(c)) CollectionAdminRequest.deleteCollection(c).process(client);
    }
  }

  @Test
  void initCreatesTheLayoutOnceAndLeavesAnExistingCollectionAsItIs() throws IOException {
    IndexSpec s = spec("init");
    assertThat(Indexes.exists(s)).isFalse();
    SolrCollections.Init first = SolrCollections.init(s, 2, 2, 0);
    assertThat(first).isEqualTo(new SolrCollections.Init(s.toString(), true, 2, 2, 0));
    assertThat(Indexes.exists(s)).isTrue();
    // Asked again, with another layout: nothing changes, and it says so.
    assertThat(SolrCollections.init(s, 1, 1, 0)).isEqualTo(new SolrCollections.Init(s.toString(), false, 2, 2, 0));
    // A dimension given later creates the vector field once; another dimension is refused.
    assertThat(SolrCollections.init(s, 2, 2, 8).dimension()).isEqualTo(8);
    assertThat(SolrCollections.init(s, 2, 2, 8).created()).isFalse();
    assertThatThrownBy(() -> SolrCollections.init(s, 2, 2, 16)).isInstanceOf(IOException.class)
        .hasMessageContaining("holds vectors of 8 dimensions, not 16");
    assertThatThrownBy(() -> SolrCollections.init(s, 0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void vectorsOfAnotherDimensionThanTheCollectionsFieldAreRefusedAndNothingIsWritten() throws IOException {
    IndexSpec s = spec("dim");
    SolrCollections.init(s, 1, 1, 8);
    try (Index index = Indexes.openExisting(s)) {
      String text = "Three dimensions only.";
      Document d = new Document("d", "", "", Language.EN, Map.of(), text);
      Chunk c = new Chunk("d#0", "d", new Span(0, text.length()), text, "", 0, 3);
      IndexEntry e = new IndexEntry(d, "/d", "h", List.of(c), List.of(new ChunkVector(0, c.span(), new float[] {1, 0, 0})), "emb");
      assertThatThrownBy(() -> index.write(List.of(e), List.of())).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("8 dimensions").hasMessageContaining("3");
      assertThat(index.stats().documents()).isZero();
      assertThat(index.stats().embedderId()).isEmpty();
    }
  }

  @Test
  void aMissingCollectionIsNamedAndOpenCreatesIt() throws IOException {
    IndexSpec s = spec("missing");
    assertThatThrownBy(() -> Indexes.openExisting(s)).isInstanceOf(IOException.class)
        .hasMessageContaining("there is no collection " + SolrLocation.parse(s).collection()).hasMessageContaining("ctxpack solr init");
    try (Index index = Indexes.open(s)) {
      assertThat(index.stats().documents()).isZero();
      assertThat(index.location()).isEqualTo(s.toString());
    }
    assertThat(Indexes.exists(s)).isTrue();
  }

  @Test
  void aCollectionOfAnotherSchemaIsRefusedNamingIt() throws Exception {
    IndexSpec s = spec("foreign");
    String collection = SolrLocation.parse(s).collection();
    // ctxpack's configset under another schema name: a collection ctxpack did not make.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(SolrAdmin.configZip()));
        ZipOutputStream zip = new ZipOutputStream(out)) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        String body = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("name=\"" + SolrFields.SCHEMA_NAME + "\"", "name=\"products\"");
        zip.putNextEntry(new ZipEntry(e.getName()));
        zip.write(body.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    var client = SolrTestCluster.get().getSolrClient();
    new ConfigSetAdminRequest.Upload().setConfigSetName("foreign-" + collection)
        .setUploadStream(new ContentStreamBase.ByteArrayStream(out.toByteArray(), "c.zip", "application/zip")).process(client);
    var create = CollectionAdminRequest.createCollection(collection, "foreign-" + collection, 1, 1);
    create.setWaitForFinalState(true);
    create.process(client);
    assertThatThrownBy(() -> Indexes.openExisting(s)).isInstanceOf(IOException.class)
        .hasMessageContaining("schema 'products'").hasMessageContaining(SolrFields.SCHEMA_NAME);
    assertThatThrownBy(() -> SolrCollections.init(s, 1, 1, 0)).isInstanceOf(IOException.class).hasMessageContaining("schema 'products'");
  }
}
