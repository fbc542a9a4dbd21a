package dev.ctxpack.index;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a principal may read of a collection: every document, or the documents whose access labels
 * (the {@code acl} list given at ingestion, kept in the document's metadata under {@link #METADATA_KEY})
 * include one of its {@code labels}. A document without labels is readable by every principal of
 * the collection.
 *
 * <p>Labels are short names ({@code "hr"}, {@code "team:search"}): non-blank, at most {@link
 * #MAX_LABEL_CHARS} characters, without commas, control characters or surrounding spaces
 * ({@link #checkLabel}).
 */
public record Access(boolean everything, Set<String> labels) {
  /** The metadata key holding a document's labels, comma-separated. */
  public static final String METADATA_KEY = "acl";
  public static final int MAX_LABEL_CHARS = 128;
  /** Reads every document: the CLI, and a service without tenants. */
  public static final Access ALL = new Access(true, Set.of());

  public Access {
    labels = Set.copyOf(new TreeSet<>(labels));
    for (String l : labels) checkLabel(l);
    if (everything && !labels.isEmpty()) throw new IllegalArgumentException("an access to everything carries no labels");
  }

  /** Reads the documents without labels and those labelled with one of {@code labels}. */
  public static Access labels(Collection<String> labels) {
    return new Access(false, new TreeSet<>(labels));
  }

  /** Whether a document labelled {@code docLabels} (empty: no labels) is readable. */
  public boolean mayRead(Collection<String> docLabels) {
    if (everything || docLabels.isEmpty()) return true;
    for (String l : docLabels) if (labels.contains(l)) return true;
    return false;
  }

  /** The labels of a document's metadata value ({@code "a,b"}), or none. */
  public static List<String> parse(String metadataValue) {
    if (metadataValue == null || metadataValue.isBlank()) return List.of();
    List<String> out = new java.util.ArrayList<>();
    for (String part : metadataValue.split(",")) if (!part.isBlank()) out.add(part.strip());
    return List.copyOf(new TreeSet<>(out));
  }

  /** The metadata value of {@code labels}, each checked. */
  public static String join(Collection<String> labels) {
    for (String l : labels) checkLabel(l);
    return String.join(",", new TreeSet<>(labels));
  }

  /** Fails with a message naming {@code label} if it cannot be an access label. */
  public static String checkLabel(String label) {
    if (label == null || label.isBlank()) throw new IllegalArgumentException("an access label must not be blank");
    if (label.length() > MAX_LABEL_CHARS) {
      throw new IllegalArgumentException("access label longer than " + MAX_LABEL_CHARS + " characters: " + label.substring(0, 32) + "…");
    }
    if (!label.equals(label.strip())) throw new IllegalArgumentException("access label '" + label + "' has surrounding spaces");
    for (int i = 0; i < label.length(); i++) {
      char c = label.charAt(i);
      if (c == ',' || Character.isISOControl(c)) {
        throw new IllegalArgumentException("access label '" + label.replaceAll("\\p{Cntrl}", "?") + "' holds a comma or a control character");
      }
    }
    return label;
  }

  @Override
  public String toString() {
    return everything ? "Access[everything]" : "Access" + labels;
  }
}
