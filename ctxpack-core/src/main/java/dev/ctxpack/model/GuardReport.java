package dev.ctxpack.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the injection guard did to one source ({@code dev.ctxpack.guard}): the policy it ran under,
 * the text exactly as it stands inside the source's fence ({@code promptText}; the source's own
 * {@code text} stays verbatim, so its spans keep their document offsets), the invisible characters
 * stripped by kind ({@code tag}, {@code zeroWidth}, {@code bidi}, {@code other}), the look-alikes
 * escaped by kind ({@code fence}, {@code chatToken}, {@code roleTag}, {@code header}), the
 * instruction-like spans flagged, and every edit from {@code text} to {@code promptText} except
 * the datamark's (which replaces every run of spaces).
 */
public record GuardReport(
    String policy,
    String promptText,
    Map<String, Integer> stripped,
    Map<String, Integer> escaped,
    List<Flag> flags,
    List<Edit> edits,
    boolean datamarked) {

  /** The report of a source the guard did not see (policy {@code off}). */
  public static final GuardReport NONE = new GuardReport("off", null, Map.of(), Map.of(), List.of(), List.of(), false);

  public GuardReport {
    Objects.requireNonNull(policy, "policy");
    stripped = Map.copyOf(stripped);
    escaped = Map.copyOf(escaped);
    flags = List.copyOf(flags);
    edits = List.copyOf(edits);
  }

  /**
   * An instruction-like span: the rule that matched, its family, {@code [start, end)} in the
   * source's {@code text}, that text, and where it lies in its document ({@code docId} empty when
   * the source has no pieces to map it through).
   */
  public record Flag(String rule, String family, int start, int end, String text, String docId, int docStart, int docEnd) {
    public Flag {
      Objects.requireNonNull(rule, "rule");
      docId = docId == null ? "" : docId;
    }
  }

  /** {@code text[start, end)} became {@code replacement} in the prompt ({@code start == end}: an insertion). */
  public record Edit(int start, int end, String kind, String replacement) {}

  public boolean flagged() {
    return !flags.isEmpty();
  }

  /** The distinct rule ids flagged, in order of first appearance. */
  public List<String> rules() {
    return flags.stream().map(Flag::rule).distinct().toList();
  }

  public int strippedTotal() {
    return stripped.values().stream().mapToInt(Integer::intValue).sum();
  }

  public int escapedTotal() {
    return escaped.values().stream().mapToInt(Integer::intValue).sum();
  }
}
