package dev.ctxpack.solr;

import dev.ctxpack.assemble.MemoryStore;
import dev.ctxpack.assemble.MemoryStoreProvider;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.IndexSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * Where the memory store of a Solr-backed index is: memories are not kept in Solr but in a local
 * store of the default backend, in ctxpack's data directory ({@code
 * DATA/memory/solr/COLLECTION-HASH}, HASH naming the cluster), so {@code assemble} and {@code
 * serve} keep their conversation memory beside a Solr index as beside an embedded one. {@code
 * --memory DIR} puts it elsewhere. A store is per machine: services on several machines over one
 * collection each keep their own memories.
 *
 * <p>DATA is the system property {@code ctxpack.data.dir}, else {@code $CTXPACK_DATA_DIR}, else
 * {@code $XDG_DATA_HOME/ctxpack}, else {@code ~/.local/share/ctxpack}.
 */
public final class SolrMemoryStoreProvider implements MemoryStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of(SolrLocation.HTTP_SCHEME, SolrLocation.ZK_SCHEME);
  }

  @Override
  public IndexSpec besideIndex(IndexSpec index) {
    SolrLocation loc = SolrLocation.parse(index);
    String cluster = loc.zkHosts().isEmpty() ? loc.solrUrl() : String.join(",", loc.zkHosts()) + loc.chroot();
    String hash = Integer.toHexString(java.util.Arrays.hashCode(cluster.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)));
    return IndexSpec.ofPath(dataDirectory().resolve("memory").resolve("solr").resolve(loc.collection() + "-" + hash));
  }

  @Override
  public MemoryStore open(IndexSpec spec, Embedder embedder) throws IOException {
    throw new IOException("memory store " + spec + ": memories are not kept in Solr; the store beside a Solr index is a"
        + " local directory (--memory DIR to choose it)");
  }

  /** ctxpack's per-user data directory (not created). */
  static Path dataDirectory() {
    String prop = System.getProperty("ctxpack.data.dir");
    if (prop != null && !prop.isBlank()) return Path.of(prop);
    String env = System.getenv("CTXPACK_DATA_DIR");
    if (env != null && !env.isBlank()) return Path.of(env);
    String xdg = System.getenv("XDG_DATA_HOME");
    if (xdg != null && !xdg.isBlank()) return Path.of(xdg, "ctxpack");
    return Path.of(System.getProperty("user.home", "."), ".local", "share", "ctxpack");
  }
}
