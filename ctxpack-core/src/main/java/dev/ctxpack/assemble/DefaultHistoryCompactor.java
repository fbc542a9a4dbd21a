package dev.ctxpack.assemble;

import dev.ctxpack.model.Action;
import dev.ctxpack.model.Stage;
import dev.ctxpack.compress.Compressor;
import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.llm.LlmClient;
import dev.ctxpack.model.Trace;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.token.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The default {@link HistoryCompactor}. One call runs:
 *
 * <ol>
 *   <li>cut the history into units: a turn, or an assistant turn that calls tools together with the
 *       tool results right after it (a tool result without its call is invalid for OpenAI, so the
 *       two are kept, pruned or summarised together); a unit holding a pinned turn is pinned;
 *   <li>if everything fits, return it unchanged; if the pinned units alone do not, return exactly
 *       them (the trace says so);
 *   <li>prune old tool results, oldest first, until the history fits: a result before the last user
 *       turn becomes a short marker naming the tool and the tokens taken out, with its name and
 *       call id kept, so the assistant's call still has its answer;
 *   <li>if it still does not fit, keep the newest units verbatim, newest first and contiguous, in the
 *       budget less {@link Builder#summaryShare} held for the summary (the newest unit may use the
 *       whole budget);
 *   <li>summarise the older turns into one message at the start of the kept history ({@link
 *       HistorySummarizer}: extractive with the compressor, or by an {@link LlmClient} when one is
 *       configured), in the room the kept turns leave; pinned turns stay verbatim in their place.
 * </ol>
 *
 * <p>The summary's role is {@code user}: it quotes what the user, the assistant and tools said,
 * which must not gain a system prompt's authority (an old turn that says "ignore your instructions"
 * stays a user's words), and Anthropic's messages format wants a user message first. Its lines are
 * {@code user: …} / {@code assistant: …} ({@code usuário: …} / {@code assistente: …} for a
 * Portuguese conversation), so who said what survives.
 *
 * <p>Every decision is a {@code history} decision in the trace; turns are named {@code t<index>}
 * (their position in the history given). The result's {@link MessageCost} sum is at most the budget
 * unless the pinned turns alone exceed it. Deterministic (same input, same output) when the LLM is
 * not used; thread-safe.
 */
public final class DefaultHistoryCompactor implements HistoryCompactor {
  public static final Stage STAGE = Stage.HISTORY;
  /** The share of the budget (after pinned turns) held for the summary when older turns are summarised. */
  public static final double DEFAULT_SUMMARY_SHARE = 0.3;

  private final HistorySummarizer summarizer;
  private final LlmClient llm;
  private final double summaryShare;
  private final LanguageDetector languages = new LanguageDetector();

  private DefaultHistoryCompactor(Builder b) {
    this.llm = b.llm;
    this.summaryShare = b.summaryShare;
    this.summarizer = new HistorySummarizer(b.compressor != null ? b.compressor : ExtractiveCompressor.builder().build(),
        b.llm);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Extractive summaries with the default compressor (its lexical scorer: no model needed). */
  public static DefaultHistoryCompactor defaults() {
    return builder().build();
  }

  @Override
  public String id() {
    return "history:" + (llm != null ? "llm(" + llm.id() + ")" : "extractive")
        + "(summary-share=" + String.format(Locale.ROOT, "%.2f", summaryShare) + ")";
  }

  /** One unit of the history: turns {@code [from, to)}. */
  private record Unit(int from, int to, boolean pinned) {}

  @Override
  public Compacted compact(String query, List<Turn> history, int budget, Tokenizer tokenizer, Trace trace)
      throws IOException {
    Objects.requireNonNull(history, "history");
    Objects.requireNonNull(tokenizer, "tokenizer");
    Objects.requireNonNull(trace, "trace");
    if (budget < 0) throw new IllegalArgumentException("history budget must be >= 0, was " + budget);
    List<Turn> h = List.copyOf(history);
    int n = h.size();
    int[] cost = new int[n];
    int total = 0;
    for (int i = 0; i < n; i++) total += cost[i] = MessageCost.of(h.get(i), tokenizer);
    if (total <= budget) {
      if (n > 0) trace.add(STAGE, Action.KEEP, "history:fits", ids(0, n), "", 0, n + " turns, " + total + " tokens, fit "
          + budget);
      return new Compacted(h, total, 0, 0);
    }
    List<Unit> units = units(h);
    boolean[] pinned = new boolean[n];
    int pinnedCost = 0;
    for (Unit u : units) {
      if (!u.pinned()) continue;
      for (int i = u.from(); i < u.to(); i++) {
        pinned[i] = true;
        pinnedCost += cost[i];
      }
    }
    if (pinnedCost > budget) {
      List<Turn> out = new ArrayList<>();
      List<String> dropped = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (pinned[i]) out.add(h.get(i));
        else dropped.add("t" + i);
      }
      trace.add(STAGE, Action.OVER_BUDGET, "history:pinned", ids(pinned, true), "", 0, "the pinned turns alone cost "
          + pinnedCost + " tokens, over the history budget of " + budget + ": only they are sent");
      if (!dropped.isEmpty()) {
        trace.add(STAGE, Action.DROP, "history:pinned-over-budget", dropped, "", total - pinnedCost, "no room left");
      }
      return new Compacted(out, pinnedCost, 0, 0);
    }
    HistoryWording words = HistoryWording.of(h, languages);

    // Old tool results go first: the marker keeps the call answered.
    int lastUser = -1;
    for (int i = n - 1; i >= 0 && lastUser < 0; i--) if (h.get(i).role().equals("user")) lastUser = i;
    Turn[] cur = h.toArray(new Turn[0]);
    int[] curCost = cost.clone();
    for (int i = 0; i < lastUser && total > budget; i++) {
      Turn t = h.get(i);
      if (!t.isToolResult() || pinned[i]) continue;
      Turn marker = t.withContent(words.pruned(t.name(), tokenizer.count(t.content())));
      int c = MessageCost.of(marker, tokenizer);
      if (c >= cost[i]) continue;
      cur[i] = marker;
      curCost[i] = c;
      total -= cost[i] - c;
    }

    int tailStart = n;
    if (total > budget) {
      // The newest units verbatim, contiguous, in what the summary leaves; the newest may use it all.
      int room = budget - pinnedCost;
      int reserve = (int) Math.floor(room * summaryShare);
      int tailCost = 0;
      boolean first = true;
      for (int k = units.size() - 1; k >= 0; k--) {
        Unit u = units.get(k);
        if (u.pinned()) {
          tailStart = u.from();
          continue;
        }
        int c = 0;
        for (int i = u.from(); i < u.to(); i++) c += curCost[i];
        if (tailCost + c > (first ? room : room - reserve)) break;
        tailCost += c;
        tailStart = u.from();
        first = false;
      }
      return summarised(query, h, cur, curCost, pinned, tailStart, budget - pinnedCost - tailCost, tokenizer, words,
          trace);
    }
    return finish(h, cur, curCost, pinned, 0, null, 0, 0, trace);
  }

  private Compacted summarised(String query, List<Turn> h, Turn[] cur, int[] curCost, boolean[] pinned, int tailStart,
      int room, Tokenizer tokenizer, HistoryWording words, Trace trace) throws IOException {
    List<Turn> older = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    int olderTokens = 0;
    for (int i = 0; i < tailStart; i++) {
      if (pinned[i]) continue;
      // A pruned result is summarised from what it said, not from its marker.
      older.add(h.get(i));
      indexes.add(i);
      olderTokens += curCost[i];
    }
    HistorySummarizer.Summary s = summarizer.summarise(query, older, indexes, room, tokenizer, words);
    List<String> olderIds = indexes.stream().map(i -> "t" + i).toList();
    if (s == null) {
      trace.add(STAGE, Action.DROP, "history:no-room", olderIds, "", olderTokens, "the " + older.size()
          + " older turns do not fit in the " + Math.max(0, room) + " tokens the kept turns leave, not even summarised");
      return finish(h, cur, curCost, pinned, tailStart, null, 0, 0, trace);
    }
    Turn summary = Turn.of("user", s.text());
    int summaryCost = MessageCost.of(summary, tokenizer);
    int saved = olderTokens - summaryCost;
    trace.add(STAGE, Action.SUMMARISE, s.rule(), olderIds, "summary", Math.max(0, saved), older.size()
        + " older turns summarised into one " + words.language().code() + " message at the start of the history"
        + (s.note().isEmpty() ? "" : "; " + s.note()));
    return finish(h, cur, curCost, pinned, tailStart, summary, summaryCost, older.size(), trace);
  }

  /** The summary (if any), then the pinned turns and the turns from {@code tailStart}, in order. */
  private static Compacted finish(List<Turn> h, Turn[] cur, int[] curCost, boolean[] pinned, int tailStart,
      Turn summary, int summaryCost, int summarised, Trace trace) {
    List<Turn> out = new ArrayList<>();
    int tokens = 0;
    if (summary != null) {
      out.add(summary);
      tokens += summaryCost;
    }
    int pruned = 0;
    List<String> kept = new ArrayList<>();
    List<String> keptPinned = new ArrayList<>();
    for (int i = 0; i < h.size(); i++) {
      if (!pinned[i] && i < tailStart) continue;
      out.add(cur[i]);
      tokens += curCost[i];
      (pinned[i] ? keptPinned : kept).add("t" + i);
      if (cur[i] != h.get(i)) {
        pruned++;
        trace.add(STAGE, Action.PRUNE, "history:old-tool-result", List.of("t" + i), "", 0,
            "result of " + (h.get(i).name().isEmpty() ? "a tool" : h.get(i).name()) + " replaced by a marker; call id "
                + h.get(i).toolCallId() + " kept");
      }
    }
    if (!keptPinned.isEmpty()) trace.add(STAGE, Action.KEEP, "history:pinned", keptPinned, "", 0, "pinned: always verbatim");
    if (!kept.isEmpty()) trace.add(STAGE, Action.KEEP, "history:recent", kept, "", 0, "the newest turns, verbatim");
    return new Compacted(out, tokens, summarised, pruned);
  }

  /** The history's units ({@link RecentHistoryCompactor#units}), each pinned when one of its turns is. */
  private static List<Unit> units(List<Turn> h) {
    List<Unit> out = new ArrayList<>();
    for (int[] u : RecentHistoryCompactor.units(h)) {
      boolean pinned = false;
      for (int k = u[0]; k < u[1]; k++) pinned |= h.get(k).pinned();
      out.add(new Unit(u[0], u[1], pinned));
    }
    return out;
  }

  private static List<String> ids(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) out.add("t" + i);
    return out;
  }

  private static List<String> ids(boolean[] flags, boolean want) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < flags.length; i++) if (flags[i] == want) out.add("t" + i);
    return out;
  }

  public static final class Builder {
    private Compressor compressor;
    private LlmClient llm;
    private double summaryShare = DEFAULT_SUMMARY_SHARE;

    private Builder() {}

    /** The compressor of extractive summaries; default: {@link ExtractiveCompressor} with its lexical scorer. */
    public Builder compressor(Compressor c) {
      this.compressor = Objects.requireNonNull(c, "compressor");
      return this;
    }

    /** A model that writes the summaries (the extractive summary is its fallback); null for none. */
    public Builder llm(LlmClient client) {
      this.llm = client;
      return this;
    }

    /** The share of the budget held for the summary when older turns are summarised, in [0, 1). */
    public Builder summaryShare(double share) {
      if (!(share >= 0 && share < 1)) throw new IllegalArgumentException("summaryShare must be in [0, 1), was " + share);
      this.summaryShare = share;
      return this;
    }

    public DefaultHistoryCompactor build() {
      return new DefaultHistoryCompactor(this);
    }
  }
}
