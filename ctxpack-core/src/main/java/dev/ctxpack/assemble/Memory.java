package dev.ctxpack.assemble;

import java.util.Locale;
import java.util.Objects;

/**
 * A remembered item of one user: a long-term {@link Kind#FACT} ("prefers answers in Portuguese"),
 * retrieved at the start of a session, or an {@link Kind#EPISODE} (a past exchange), retrieved by
 * similarity to the query. {@code created} is an ISO-8601 instant; {@code score} is the recall
 * score (0 when listed).
 */
public record Memory(String id, String user, Kind kind, String text, String created, double score) {
  public Memory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
    created = created == null ? "" : created;
  }

  public Memory withScore(double s) {
    return new Memory(id, user, kind, text, created, s);
  }

  public enum Kind {
    FACT("fact"),
    EPISODE("episode");

    private final String key;

    Kind(String key) {
      this.key = key;
    }

    public String key() {
      return key;
    }

    public static Kind parse(String s) {
      String k = s.trim().toLowerCase(Locale.ROOT);
      for (Kind v : values()) {
        if (v.key.equals(k)) return v;
      }
      throw new IllegalArgumentException("unknown memory kind '" + s + "': use fact or episode");
    }
  }
}
