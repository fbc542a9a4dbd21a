package dev.ctxpack.index;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Decision;
import dev.ctxpack.model.Stage;
import dev.ctxpack.model.Trace;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Which parts of a distributed index did not answer a request's reads: a sink a {@link
 * SearchableIndex#reportingTo reporting view} writes the names of the shards it answered without.
 * An index that answers whole or fails (the embedded Lucene index; a Solr collection unless its spec
 * asks for {@code shards.tolerant}) never writes to it. Thread-safe: a backend may read shards side by
 * side.
 *
 * <pre>{@code
 * ReadCoverage coverage = new ReadCoverage();
 * List<Candidate> hits = index.reportingTo(coverage).searchSparse("salary bands", 10);
 * if (coverage.partial()) log.warn("answered without shards " + coverage.missingShards());
 * }</pre>
 */
public final class ReadCoverage {
  /** The rule of the trace line {@link #report} writes: {@code retrieve / partial / shards-missing}. */
  public static final String RULE = "shards-missing";

  private final Set<String> missing = new ConcurrentSkipListSet<>();

  /** Records that a read was answered without {@code shards} (names as the backend knows them). */
  public void missing(Collection<String> shards) {
    missing.addAll(shards);
  }

  /** Whether some read was answered without a part of the index. */
  public boolean partial() {
    return !missing.isEmpty();
  }

  /** The shards some read was answered without, sorted; empty when every read was whole. */
  public List<String> missingShards() {
    return List.copyOf(missing);
  }

  /**
   * Adds the trace line that says the request's evidence may be incomplete, when it is: {@code
   * retrieve / partial / shards-missing} naming the missing shards in {@code ids}. Nothing when whole.
   */
  public void report(Trace trace) {
    if (!partial()) return;
    List<String> shards = missingShards();
    trace.add(Stage.RETRIEVE, Action.PARTIAL, RULE, shards, "", 0,
        (shards.size() == 1 ? "shard " + shards.get(0) + " has" : "shards " + String.join(", ", shards) + " have")
            + " no live replica: the results come from the other shards and may miss evidence they hold");
  }

  /** Whether {@code d} is a line {@link #report} writes. */
  public static boolean isReport(Decision d) {
    return d.stage() == Stage.RETRIEVE && d.action() == Action.PARTIAL && RULE.equals(d.rule());
  }

  /** The shards {@code trace}'s {@link #report} lines name, sorted; empty when the request read the whole index. */
  public static List<String> missingShards(List<Decision> trace) {
    Set<String> out = new java.util.TreeSet<>();
    for (Decision d : trace) if (isReport(d)) out.addAll(d.ids());
    return List.copyOf(out);
  }
}
