package dev.ctxpack.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.index.IndexSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Index specs name a collection through ZooKeeper or a node's address; a bad one is refused naming what is wrong. */
class SolrLocationTest {
  private static SolrLocation parse(String spec) {
    return SolrLocation.parse(IndexSpec.parse(spec));
  }

  @Test
  void aZooKeeperSpecNamesTheEnsembleTheChrootAndTheCollection() {
    SolrLocation l = parse("solr+zk://zk1:2181,zk2:2181,zk3:2181/solr/prod/scifact");
    assertThat(l.zkHosts()).containsExactly("zk1:2181", "zk2:2181", "zk3:2181");
    assertThat(l.chroot()).isEqualTo("/solr/prod");
    assertThat(l.collection()).isEqualTo("scifact");
    assertThat(l.solrUrl()).isEmpty();
    assertThat(l.spec()).isEqualTo("solr+zk://zk1:2181,zk2:2181,zk3:2181/solr/prod/scifact");

    SolrLocation bare = parse("solr+zk://127.0.0.1:9983/docs");
    assertThat(bare.zkHosts()).containsExactly("127.0.0.1:9983");
    assertThat(bare.chroot()).isEmpty();
    assertThat(bare.collection()).isEqualTo("docs");
  }

  @Test
  void anHttpSpecNamesANodeAndTheCollection() {
    SolrLocation l = parse("solr:http://search.internal:8983/solr/cranfield");
    assertThat(l.solrUrl()).isEqualTo("http://search.internal:8983/solr");
    assertThat(l.collection()).isEqualTo("cranfield");
    assertThat(l.zkHosts()).isEmpty();
    assertThat(parse("solr:https://h:8983/solr/c/").collection()).isEqualTo("c");
    assertThat(parse("solr:http://h:8983/solr/c").spec()).isEqualTo("solr:http://h:8983/solr/c");
  }

  @Test
  void eitherSpecMayTolerateAShardWithNoLiveReplica() {
    SolrLocation zk = parse("solr+zk://zk1:2181/solr/scifact?shards.tolerant=true");
    assertThat(zk.tolerant()).isTrue();
    assertThat(zk.collection()).isEqualTo("scifact");
    assertThat(zk.chroot()).isEqualTo("/solr");
    assertThat(zk.spec()).isEqualTo("solr+zk://zk1:2181/solr/scifact?shards.tolerant=true");
    SolrLocation http = parse("solr:http://h:8983/solr/c?shards.tolerant=true");
    assertThat(http.tolerant()).isTrue();
    assertThat(http.collection()).isEqualTo("c");
    assertThat(http.solrUrl()).isEqualTo("http://h:8983/solr");
    assertThat(parse("solr:http://h:8983/solr/c?shards.tolerant=false").tolerant()).isFalse();
    assertThat(parse("solr:http://h:8983/solr/c?shards.tolerant=false").spec()).isEqualTo("solr:http://h:8983/solr/c");
    assertThat(parse("solr+zk://zk1:2181/c").tolerant()).isFalse();
  }

  @Test
  void aBadSpecIsRefusedNamingWhatIsWrong() {
    for (var bad : List.of(
        List.of("solr+zk:zk1:2181/c", "solr+zk://HOST:PORT"),
        List.of("solr+zk://zk1:2181", "names no collection"),
        List.of("solr+zk://zk1/c", "'zk1' is not a ZooKeeper HOST:PORT"),
        List.of("solr+zk://zk1:2181/solr/", "names no collection"),
        List.of("solr+zk://zk1:2181/solr/-bad", "not a Solr collection name"),
        List.of("solr+zk://zk1:2181/a//c", "empty segment"),
        List.of("solr:ftp://h/solr/c", "solr:http://HOST:PORT/solr/COLLECTION"),
        List.of("solr:http://h:8983", "names no collection"),
        List.of("solr:http://h:8983/solr/a b", "not a URL"),
        List.of("solr+zk://zk1:2181/c?tolerant=true", "unknown option 'tolerant' (the one option is shards.tolerant=true|false)"),
        List.of("solr+zk://zk1:2181/c?shards.tolerant=yes", "shards.tolerant must be true or false, was 'yes'"),
        List.of("solr:http://h:8983/solr/c?shards.tolerant", "shards.tolerant must be true or false, was ''"),
        List.of("solr:http://h:8983/solr/c#top", "write options after the collection as ?shards.tolerant=true"))) {
      assertThatThrownBy(() -> parse(bad.get(0))).as(bad.get(0)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad.get(0).contains(" ") ? "index spec" : bad.get(0)).hasMessageContaining(bad.get(1));
    }
  }
}
