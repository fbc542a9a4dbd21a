package dev.ctxpack.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.index.Access;
import dev.ctxpack.index.IndexSpec;
import dev.ctxpack.text.TextNormalizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tenants file: what it maps keys to, and how each mistake in it is named. */
class TenantsTest {
  @TempDir Path dir;

  private Tenants load(String json) throws Exception {
    return Tenants.load(Files.writeString(dir.resolve("tenants.json"), json));
  }

  @Test
  void keysMapToTheirTenantPrincipalLabelsAndWriteRight() throws Exception {
    Tenants t = load("""
        {"tenants": {
          "acme": {"collections": {"docs": "a/docs", "hr": "/abs/hr", "wiki": "lucene:a/wiki"},
                   "keys": [{"principal": "ann", "key": "ann-key-0123456789", "labels": ["eng", "leads"]},
                            {"principal": "ops", "keySha256": "%s", "labels": ["*"], "write": true}]},
          "globex": {"collections": {"docs": "g"}, "keys": [{"principal": "bob", "key": "bob-key-0123456789"}]}}}
        """.formatted(TextNormalizer.sha256Hex("ops-key-0123456789").toUpperCase()));
    Caller ann = t.authenticate("Bearer ann-key-0123456789").orElseThrow();
    assertThat(ann).isEqualTo(new Caller("acme", "ann", Access.labels(List.of("eng", "leads")), false));
    assertThat(t.authenticate("bearer   ops-key-0123456789 ").orElseThrow())
        .isEqualTo(new Caller("acme", "ops", Access.ALL, true));
    assertThat(t.authenticate("Bearer bob-key-0123456789").orElseThrow().access()).isEqualTo(Access.labels(List.of()));
    // Without "users" a key acts for the user its principal names, and for no other.
    assertThat(ann.users()).containsExactly("ann");
    assertThat(ann.actsFor("ann")).isTrue();
    assertThat(ann.actsFor("ops")).isFalse();
    for (String h : new String[] {null, "", "Bearer", "Bearer ", "Basic ann-key-0123456789", "ann-key-0123456789",
        "Bearer ann-key-012345678", "Bearer ANN-KEY-0123456789"}) {
      assertThat(t.authenticate(h)).as(String.valueOf(h)).isEmpty();
    }
    assertThat(t.tenant("acme").defaultCollection()).isEqualTo("docs");
    assertThat(t.tenant("acme").collections().get("docs"))
        .isEqualTo(IndexSpec.ofPath(dir.resolve("a/docs").toAbsolutePath().normalize()));
    assertThat(t.tenant("acme").collections().get("hr")).isEqualTo(IndexSpec.ofPath(Path.of("/abs/hr")));
    // A spec's relative directory is resolved against the file's folder too.
    assertThat(t.tenant("acme").collections().get("wiki"))
        .isEqualTo(IndexSpec.ofPath(dir.resolve("a/wiki").toAbsolutePath().normalize()));
    assertThat(t.all()).extracting(Tenants.Tenant::id).containsExactly("acme", "globex");
  }

  @Test
  void everyMistakeIsNamedWithItsField() {
    String ok = "\"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\"}]";
    String[][] cases = {
        {"{}", "tenants must be an object"},
        {"{\"tenants\": {\"a b\": {\"collections\": {\"d\": \"x\"}, " + ok + "}}}", "tenants.a b a tenant name"},
        {"{\"tenants\": {\"a\": {\"collections\": {}, " + ok + "}}}", "tenants.a.collections must name"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d/x\": \"x\"}, " + ok + "}}}", "tenants.a.collections.d/x a collection name"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": 3}, " + ok + "}}}", "tenants.a.collections.d must be an index directory"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, " + ok + "}, \"b\": {\"collections\": {\"d\": \"x\"},"
            + " \"keys\": [{\"principal\": \"q\", \"key\": \"fedcba9876543210\"}]}}}", "tenants.b.collections.d uses the directory of tenants.a.collections.d"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\", \"e\": \"lucene:./x\"}, " + ok + "}}}",
            "tenants.a.collections.e uses the directory of tenants.a.collections.d"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"elastic:http://es:9200/docs\"}, " + ok + "}}}",
            "tenants.a.collections.d unknown index backend 'elastic' in 'elastic:http://es:9200/docs': add the ctxpack-elastic module"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": []}}}", "tenants.a.keys must list"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"key\": \"0123456789abcdef\"}]}}}", "tenants.a.keys[0].principal"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"short\"}]}}}", "tenants.a.keys[0].key must be at least 16"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\"}]}}}", "exactly one of 'key' and 'keySha256'"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"keySha256\": \"abc\"}]}}}", "keySha256 must be 64 hex"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"labels\": [\"*\", \"x\"]}]}}}", "labels \"*\""},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"labels\": [\"a,b\"]}]}}}", "labels access label"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"write\": \"yes\"}]}}}", "write must be true or false"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"users\": \"ana\"}]}}}", "keys[0].users must be a list of user ids"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"users\": [\"ana\", \" \"]}]}}}", "keys[0].users must be a list of non-empty user ids"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\", \"users\": [\"*\", \"ana\"]}]}}}", "keys[0].users \"*\" (every user) stands alone"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, \"keys\": [{\"principal\": \"p\", \"key\": \"0123456789abcdef\"},"
            + " {\"principal\": \"q\", \"key\": \"0123456789abcdef\"}]}}}", "tenants.a.keys[1] repeats a key"},
        {"{\"tenants\": {\"a\": {\"collections\": {\"d\": \"x\"}, " + ok + "}, \"a\": {}}}", "not valid JSON: Duplicate field 'a'"},
        {"{\"tenants\": ", "not valid JSON"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> load(c[0])).as(c[0]).isInstanceOf(UsageException.class)
          .hasMessageContaining("--tenants " + dir.resolve("tenants.json")).hasMessageContaining(c[1]);
    }
    assertThatThrownBy(() -> Tenants.load(dir.resolve("missing.json"))).hasMessageContaining("no such file");
  }
}
