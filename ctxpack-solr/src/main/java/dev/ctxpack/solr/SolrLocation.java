package dev.ctxpack.solr;

import dev.ctxpack.index.IndexSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.solr.client.solrj.impl.CloudLegacySolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;

/**
 * Where a SolrCloud collection is, from an index spec:
 *
 * <ul>
 *   <li>{@code solr:http://HOST:PORT/solr/COLLECTION}: a node's base address (any node of the
 *       cluster; the client learns the cluster's layout from it) and the collection;
 *   <li>{@code solr+zk://HOST:PORT[,HOST:PORT...][/CHROOT]/COLLECTION}: the ZooKeeper ensemble, its
 *       chroot (everything between the addresses and the last segment) and the collection.
 * </ul>
 *
 * <p>Either may end with {@code ?shards.tolerant=true}: a search then answers from the shards that
 * have a live replica when one has none, and says so ({@link dev.ctxpack.index.ReadCoverage}),
 * where by default it fails naming the collection.
 *
 * @param zkHosts the ZooKeeper addresses, empty for an HTTP spec
 * @param chroot the ZooKeeper chroot ({@code /solr}), empty when none
 * @param solrUrl the node's base address ({@code http://host:8983/solr}), empty for a ZooKeeper spec
 * @param collection the collection's name
 * @param tolerant whether searches answer without a shard that has no live replica
 */
record SolrLocation(List<String> zkHosts, String chroot, String solrUrl, String collection, boolean tolerant) {
  /** The one option a spec takes after {@code ?}. */
  static final String TOLERANT = "shards.tolerant";
  static final String HTTP_SCHEME = "solr";
  static final String ZK_SCHEME = "solr+zk";
  /** Solr's rule for collection names. */
  private static final Pattern COLLECTION = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
  private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:]+:[0-9]{1,5}");

  SolrLocation {
    zkHosts = List.copyOf(zkHosts);
  }

  /** The location {@code spec} names; fails naming what is wrong with it. */
  static SolrLocation parse(IndexSpec spec) {
    String full = spec.scheme() + ":" + spec.location();
    int question = spec.location().indexOf('?');
    String loc = question < 0 ? spec.location() : spec.location().substring(0, question);
    boolean tolerant = question >= 0 && tolerant(full, spec.location().substring(question + 1));
    if (spec.scheme().equals(ZK_SCHEME)) {
      if (!loc.startsWith("//")) throw bad(full, "write solr+zk://HOST:PORT[,HOST:PORT][/CHROOT]/COLLECTION");
      String rest = loc.substring(2);
      int slash = rest.indexOf('/');
      if (slash < 0) throw bad(full, "it names no collection: add /COLLECTION after the ZooKeeper address");
      List<String> hosts = new ArrayList<>();
      for (String h : rest.substring(0, slash).split(",", -1)) {
        if (!HOST_PORT.matcher(h).matches()) throw bad(full, "'" + h + "' is not a ZooKeeper HOST:PORT");
        hosts.add(h);
      }
      String path = rest.substring(slash);
      int last = path.lastIndexOf('/');
      String chroot = path.substring(0, last);
      String collection = collection(full, path.substring(last + 1));
      if (chroot.contains("//") || chroot.endsWith("/")) throw bad(full, "its ZooKeeper chroot '" + chroot + "' has an empty segment");
      return new SolrLocation(hosts, chroot, "", collection, tolerant);
    }
    if (spec.scheme().equals(HTTP_SCHEME)) {
      URI uri;
      try {
        uri = URI.create(loc);
      } catch (IllegalArgumentException e) {
        throw bad(full, "it is not a URL: " + e.getMessage());
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw bad(full, "write solr:http://HOST:PORT/solr/COLLECTION");
      }
      String path = uri.getPath() == null ? "" : uri.getPath();
      while (path.endsWith("/")) path = path.substring(0, path.length() - 1);
      int last = path.lastIndexOf('/');
      if (last < 0) throw bad(full, "it names no collection: add /solr/COLLECTION after the address");
      String collection = collection(full, path.substring(last + 1));
      String base = uri.getScheme() + "://" + uri.getRawAuthority() + path.substring(0, last);
      if (uri.getRawFragment() != null) throw bad(full, "write options after the collection as ?" + TOLERANT + "=true");
      return new SolrLocation(List.of(), "", base, collection, tolerant);
    }
    throw new IllegalArgumentException("index spec '" + full + "' is not a Solr spec (solr: or solr+zk:)");
  }

  /** The options {@code query} ({@code shards.tolerant=true|false}) give; fails naming an unknown or bad one. */
  private static boolean tolerant(String full, String query) {
    boolean tolerant = false;
    for (String option : query.split("&", -1)) {
      int eq = option.indexOf('=');
      String name = eq < 0 ? option : option.substring(0, eq);
      String value = eq < 0 ? "" : option.substring(eq + 1);
      if (!name.equals(TOLERANT)) throw bad(full, "unknown option '" + name + "' (the one option is " + TOLERANT + "=true|false)");
      if (!value.equals("true") && !value.equals("false")) throw bad(full, TOLERANT + " must be true or false, was '" + value + "'");
      tolerant = value.equals("true");
    }
    return tolerant;
  }

  private static String collection(String full, String name) {
    if (name.isEmpty()) throw bad(full, "it names no collection (the last path segment)");
    if (!COLLECTION.matcher(name).matches()) {
      throw bad(full, "'" + name + "' is not a Solr collection name (letters, digits, '.', '_', '-'; not starting with '.' or '-')");
    }
    return name;
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException("index spec '" + spec + "': " + why);
  }

  /** A client of the cluster: through ZooKeeper, or through a node's HTTP address. */
  CloudSolrClient client() {
    CloudLegacySolrClient.Builder b = zkHosts.isEmpty()
        ? new CloudLegacySolrClient.Builder(List.of(solrUrl))
        : new CloudLegacySolrClient.Builder(zkHosts, chroot.isEmpty() ? Optional.empty() : Optional.of(chroot));
    return b.withConnectionTimeout(15_000).withSocketTimeout(120_000)
        .withZkConnectTimeout(15, java.util.concurrent.TimeUnit.SECONDS).build();
  }

  /** As a user writes it. */
  String spec() {
    return (zkHosts.isEmpty() ? HTTP_SCHEME + ":" + solrUrl + "/" + collection
        : ZK_SCHEME + "://" + String.join(",", zkHosts) + chroot + "/" + collection) + (tolerant ? "?" + TOLERANT + "=true" : "");
  }
}
