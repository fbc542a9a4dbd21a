package dev.ctxpack.pack;

import dev.ctxpack.guard.InjectionGuard;
import dev.ctxpack.guard.InjectionPolicy;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.PlanStep;
import dev.ctxpack.model.Source;
import dev.ctxpack.token.Tokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lays labelled sources out as a prompt plan ({@link Strategy#MAP_REDUCE}, {@link Strategy#REFINE},
 * {@link Strategy#TREE}) in which every call's prompt fits {@code limit} tokens, counted exactly:
 *
 * <ul>
 *   <li>sources are grouped, in label order, into as few calls as hold them (each group's prompt
 *       counted exactly), so the number of sources per call follows from the budget;
 *   <li>a step that reads earlier outputs gives each an equal share of what its prompt leaves: an
 *       output's bound is {@code (limit - prompt without outputs - 2 per output) / outputs}; when
 *       that share would fall under {@value #MIN_NOTE} tokens, the outputs are first combined in
 *       intermediate steps (as many levels as the budget requires: no fixed {@code token_max});
 *   <li>refine gives the draft a third of what a call leaves once its fixed text is paid for.
 * </ul>
 *
 * Labels never change: notes and drafts keep {@code [S#]}, their fences name the labels they cover,
 * and the final step cites them. Source text and the query are fenced and guarded as in a stuffed
 * prompt; any {@code {{step:} in them is written with full-width braces so that only the plan's own
 * placeholders are filled.
 */
final class PlanBuilder {
  /** The smallest bound an intermediate output is given, in tokens. */
  static final int MIN_NOTE = 64;
  /** Tokens allowed per filled placeholder for the seams between an output and the text around it. */
  static final int SLACK = 2;
  /** The word count written while sizing (four digits, as many tokens as any real count). */
  private static final int SIZING_WORDS = 9999;

  /** A plan, and the labels of sources too large for any call on their own (to drop and plan again). */
  record Built(List<PlanStep> steps, List<String> tooLarge, Map<String, Integer> largestByComponent) {}

  private final Tokenizer tok;
  private final PromptRenderer renderer;
  private final PromptTemplate template;
  private final InjectionPolicy policy;
  private final String query;
  private final int limit;
  private final int reserve;
  private final Language lang;
  private String sourceTag;
  private String notesTag;

  PlanBuilder(Tokenizer tok, PromptRenderer renderer, PromptTemplate template, InjectionPolicy policy, String query,
      int limit, int reserve) {
    this.tok = tok;
    this.renderer = renderer;
    this.template = template;
    this.policy = policy;
    this.query = query;
    this.limit = limit;
    this.reserve = reserve;
    this.lang = template.language() == Language.PT ? Language.PT : Language.EN;
  }

  /** One call being laid out. */
  private static final class Node {
    final String kind;
    final List<Source> sources;
    final List<Node> children;
    final Node draft;
    boolean last;
    int step;
    int maxOut;

    Node(String kind, List<Source> sources, List<Node> children, Node draft) {
      this.kind = kind;
      this.sources = sources;
      this.children = children;
      this.draft = draft;
    }

    List<String> labels() {
      List<String> out = new ArrayList<>();
      if (draft != null) out.addAll(draft.labels());
      for (Node c : children) out.addAll(c.labels());
      for (Source s : sources) out.add(s.label());
      return out;
    }

    /** The flagged sources this call's output was written from, in label order. */
    List<Source> flagged() {
      List<Source> out = new ArrayList<>();
      if (draft != null) out.addAll(draft.flagged());
      for (Node c : children) out.addAll(c.flagged());
      for (Source s : sources) if (s.guard().flagged()) out.add(s);
      return out;
    }
  }

  /** The three parts of a step's prompt, whose concatenation is the prompt. */
  private record Parts(String instructions, String body, String question) {
    String prompt() {
      return instructions + body + question;
    }
  }

  Built build(Strategy strategy, List<Source> sources, String conflictNote) {
    this.note = conflictNote == null ? "" : conflictNote;
    if (policy == InjectionPolicy.OFF) {
      sourceTag = renderer.fenceTag(sources);
      notesTag = "notes";
    } else {
      String token = InjectionGuard.boundary(query, sources);
      sourceTag = "source-" + token;
      notesTag = "notes-" + token;
    }
    List<String> tooLarge = new ArrayList<>();
    for (Source s : sources) {
      if (!fitsAlone(strategy, s, sources)) tooLarge.add(s.label());
    }
    if (!tooLarge.isEmpty()) return new Built(List.of(), tooLarge, Map.of());
    List<Node> order = new ArrayList<>();
    if (sources.isEmpty()) { // nothing to read: one call that can only abstain
      Node only = new Node(switch (strategy) {
        case REFINE -> "refine";
        case TREE -> "generate";
        default -> "reduce";
      }, List.of(), List.of(), null);
      only.last = true;
      add(only, order);
      return steps(order);
    }
    switch (strategy) {
      case MAP_REDUCE -> combine(group(sources, "map", order), "collapse", "reduce", order);
      case REFINE -> refine(sources, order);
      case TREE -> tree(sources, order);
      default -> throw new IllegalArgumentException("not a plan strategy: " + strategy.key());
    }
    return steps(order);
  }

  private boolean fitsAlone(Strategy strategy, Source s, List<Source> all) {
    if (strategy == Strategy.REFINE) {
      // Any group may carry a draft (naming, at most, every label) and end the plan: the source must fit so.
      Node dummy = new Node("refine", all, List.of(), null);
      dummy.step = 1;
      return refineCost(new Node("refine", List.of(s), List.of(), dummy), draftShare()) <= limit;
    }
    String kind = strategy == Strategy.TREE ? "summarize-section" : "map";
    return tok.count(leafParts(new Node(kind, List.of(s), List.of(), null), true).prompt()) <= limit;
  }

  /** Groups sources, in order, into calls of {@code kind} whose prompts fit. */
  private List<Node> group(List<Source> sources, String kind, List<Node> order) {
    List<Node> out = new ArrayList<>();
    List<Source> current = new ArrayList<>();
    for (Source s : sources) {
      current.add(s);
      if (current.size() > 1 && tok.count(leafParts(new Node(kind, current, List.of(), null), true).prompt()) > limit) {
        current.remove(current.size() - 1);
        out.add(new Node(kind, List.copyOf(current), List.of(), null));
        current = new ArrayList<>(List.of(s));
      }
    }
    if (!current.isEmpty()) out.add(new Node(kind, List.copyOf(current), List.of(), null));
    for (Node n : out) add(n, order);
    return out;
  }

  private static void add(Node n, List<Node> order) {
    order.add(n);
    n.step = order.size();
  }

  /**
   * One step over {@code nodes}' outputs, of kind {@code topKind} (the plan's end when it is {@code
   * reduce} or {@code generate}); when the outputs would get less than {@link #MIN_NOTE} tokens each,
   * they are combined first in steps of {@code midKind} holding as many as keep that share, level
   * after level.
   */
  private Node combine(List<Node> nodes, String midKind, String topKind, List<Node> order) {
    boolean end = topKind.equals("reduce") || topKind.equals("generate");
    List<Node> level = nodes;
    while (true) {
      Node top = new Node(topKind, List.of(), level, null);
      top.last = end;
      int m = share(top);
      if (m >= MIN_NOTE || level.size() == 1) {
        if (m < MIN_NOTE) throw tooSmall(top);
        for (Node c : level) c.maxOut = m;
        add(top, order);
        return top;
      }
      List<Node> next = new ArrayList<>();
      List<Node> chunk = new ArrayList<>();
      for (Node n : level) {
        chunk.add(n);
        if (chunk.size() > 1 && share(new Node(midKind, List.of(), chunk, null)) < MIN_NOTE) {
          chunk.remove(chunk.size() - 1);
          next.add(chunk.size() == 1 ? chunk.get(0) : close(chunk, midKind, order));
          chunk = new ArrayList<>(List.of(n));
        }
      }
      // A last output left alone is carried up unchanged: a step over one output adds nothing.
      next.add(chunk.size() == 1 ? chunk.get(0) : close(chunk, midKind, order));
      if (next.size() >= level.size()) throw tooSmall(new Node(midKind, List.of(), level.subList(0, 2), null));
      level = next;
    }
  }

  private PlanTooSmallException tooSmall(Node parent) {
    int fixed = tok.count(parentParts(parent, true).prompt());
    int needed = fixed + parent.children.size() * (MIN_NOTE + SLACK);
    return new PlanTooSmallException("budget of " + limit + " tokens is too small for a plan: a " + parent.kind
        + " step reading " + parent.children.size() + " outputs of at least " + MIN_NOTE + " tokens needs " + needed
        + " tokens");
  }

  private Node close(List<Node> chunk, String kind, List<Node> order) {
    Node mid = new Node(kind, List.of(), List.copyOf(chunk), null);
    int m = share(mid);
    for (Node c : chunk) c.maxOut = m;
    add(mid, order);
    return mid;
  }

  /** The bound each output read by {@code parent} gets: an equal share of what its prompt leaves. */
  private int share(Node parent) {
    int n = parent.children.size();
    int fixed = tok.count(parentParts(parent, true).prompt());
    return (limit - fixed - SLACK * n) / n;
  }

  /** The draft's bound: a third of what a refine call leaves once its fixed text is paid for. */
  private int draftShare() {
    Node prev = new Node("refine", List.of(), List.of(), null);
    prev.step = 1;
    Node probe = new Node("refine", List.of(), List.of(), prev);
    int fixed = refineCost(probe, 0);
    return Math.max(MIN_NOTE, (limit - fixed) / 3);
  }

  /**
   * What a refine call over {@code n}'s sources costs at most, with its draft (if any) at {@code d}
   * tokens: the larger of the call as an intermediate step and as the plan's end.
   */
  private int refineCost(Node n, int d) {
    boolean was = n.last;
    n.last = false;
    int mid = tok.count((n.draft == null ? leafParts(n, true) : refineParts(n, true)).prompt());
    n.last = true;
    int end = tok.count((n.draft == null ? leafParts(n, true) : refineParts(n, true)).prompt());
    n.last = was;
    return Math.max(mid, end) + (n.draft == null ? 0 : d + SLACK);
  }

  private void refine(List<Source> sources, List<Node> order) {
    int d = draftShare();
    Node prev = null;
    List<Source> current = new ArrayList<>();
    for (Source s : sources) {
      current.add(s);
      if (current.size() > 1 && refineCost(new Node("refine", current, List.of(), prev), d) > limit) {
        current.remove(current.size() - 1);
        Node step = new Node("refine", List.copyOf(current), List.of(), prev);
        add(step, order);
        step.maxOut = d;
        prev = step;
        current = new ArrayList<>(List.of(s));
      }
    }
    Node last = new Node("refine", List.copyOf(current), List.of(), prev);
    last.last = true;
    add(last, order);
  }

  private void tree(List<Source> sources, List<Node> order) {
    Map<String, Map<String, List<Source>>> byDoc = new LinkedHashMap<>();
    for (Source s : sources) {
      byDoc.computeIfAbsent(s.docId(), k -> new LinkedHashMap<>())
          .computeIfAbsent(s.section() == null ? "" : s.section(), k -> new ArrayList<>()).add(s);
    }
    List<List<Node>> leaves = new ArrayList<>();
    for (Map<String, List<Source>> sections : byDoc.values()) {
      List<Node> ofDoc = new ArrayList<>();
      for (List<Source> section : sections.values()) ofDoc.addAll(group(section, "summarize-section", order));
      leaves.add(ofDoc);
    }
    List<Node> docs = new ArrayList<>();
    for (List<Node> sections : leaves) {
      docs.add(sections.size() == 1 ? sections.get(0) : combine(sections, "summarize-document", "summarize-document", order));
    }
    combine(docs, "summarize-collection", "generate", order);
  }

  private Built steps(List<Node> order) {
    List<PlanStep> out = new ArrayList<>(order.size());
    Map<String, Integer> largest = Map.of();
    int most = -1;
    Node end = order.get(order.size() - 1);
    end.last = true;
    for (Node n : order) {
      boolean leaf = n.children.isEmpty() && n.draft == null;
      Parts p = leaf ? leafParts(n, false) : n.draft != null ? refineParts(n, false) : parentParts(n, false);
      // Counted with every placeholder at its output's bound (and the seams' slack).
      int tokens;
      List<String> sees = new ArrayList<>();
      if (leaf) {
        tokens = tok.count(p.prompt());
      } else if (n.draft != null) {
        tokens = tok.count(refineParts(n, true).prompt()) + n.draft.maxOut + SLACK;
        sees.add("step:" + n.draft.step);
      } else {
        tokens = tok.count(parentParts(n, true).prompt());
        for (Node c : n.children) {
          tokens += c.maxOut + SLACK;
          sees.add("step:" + c.step);
        }
      }
      for (Source s : n.sources) sees.add(s.label());
      if (tokens > limit) {
        throw new IllegalStateException("plan step " + n.step + " (" + n.kind + ") counts " + tokens + " tokens, over "
            + limit + ": the plan was sized wrong");
      }
      out.add(new PlanStep(n.step, n.kind, sees, p.prompt(), tokens, n == end ? reserve : n.maxOut));
      if (tokens > most) {
        most = tokens;
        int q = tok.count(p.question());
        int instr = Math.min(tok.count(p.instructions()), tokens - q);
        Map<String, Integer> by = new LinkedHashMap<>();
        by.put("instructions", instr);
        by.put("sources", tokens - q - instr);
        by.put("query", q);
        largest = by;
      }
    }
    return new Built(out, List.of(), largest);
  }

  // ---- rendering ----

  private String note = "";

  private Parts leafParts(Node n, boolean sizing) {
    String instructions = n.last ? template.renderedInstructions(n.labels())
        : PlanPrompts.extract(lang, n.kind, words(n, sizing), n.labels());
    return new Parts(head(instructions, true, false),
        header(template.sourcesHeader()) + blocks(n.sources) + (n.last ? note : ""), question());
  }

  /** A refine step with a draft; {@code empty}: the draft's placeholder left out (for counting), words at most. */
  private Parts refineParts(Node n, boolean empty) {
    String instructions = n.last
        ? template.renderedInstructions(n.labels()) + "\n" + PlanPrompts.finalDraft(lang)
        : PlanPrompts.refine(lang, words(n, empty), n.sources.stream().map(Source::label).toList());
    String body = header(PlanPrompts.draftHeader(lang)) + (empty ? fenceEmpty(n.draft) : fence(n.draft)) + "\n"
        + header(template.sourcesHeader()) + blocks(n.sources) + (n.last ? note : "");
    return new Parts(head(instructions, true, true), body, question());
  }

  /** A step over earlier outputs; {@code empty}: placeholders left out (for counting), words at most. */
  private Parts parentParts(Node n, boolean empty) {
    String instructions = n.last
        ? template.renderedInstructions(n.labels()) + "\n" + PlanPrompts.finalNotes(lang, n.children.size(), labelRange(n))
        : PlanPrompts.combine(lang, n.kind, words(n, empty), n.labels());
    StringBuilder body = new StringBuilder(header(n.last ? template.sourcesHeader() : PlanPrompts.notesHeader(lang)));
    for (Node c : n.children) body.append(empty ? fenceEmpty(c) : fence(c));
    if (n.last) body.append(note);
    return new Parts(head(instructions, false, true), body.toString(), question());
  }

  private static String labelRange(Node n) {
    List<String> labels = n.labels();
    return labels.size() <= 2 ? String.join(", ", labels) : labels.get(0) + " … " + labels.get(labels.size() - 1);
  }

  private String head(String instructions, boolean sources, boolean notes) {
    StringBuilder sb = new StringBuilder(instructions);
    if (policy != InjectionPolicy.OFF) {
      if (sources) sb.append('\n').append(InjectionGuard.instructions(lang, sourceTag, policy));
      if (notes) sb.append('\n').append(PlanPrompts.fenceLine(lang, notesTag));
    }
    return sb.append("\n\n").toString();
  }

  private static String header(String h) {
    return h + "\n";
  }

  private String blocks(List<Source> sources) {
    StringBuilder sb = new StringBuilder();
    for (Source s : sources) {
      String b = policy == InjectionPolicy.OFF ? renderer.block(s, sourceTag) : renderer.block(s, sourceTag, lang);
      sb.append(escapePlaceholders(b)).append('\n');
    }
    return sb.toString();
  }

  private String fence(Node child) {
    return open(child) + PlanStep.placeholder(child.step) + "\n</" + notesTag + ">\n";
  }

  private String fenceEmpty(Node child) {
    return open(child) + "\n</" + notesTag + ">\n";
  }

  /**
   * The opening of an earlier output's fence; when it was written from flagged sources, a warning
   * line follows, as inside a flagged source's own fence, so that what an instruction-like text made
   * of the notes is not taken for the request.
   */
  private String open(Node child) {
    String tag = "<" + notesTag + " step=\"" + child.step + "\" sources=\"" + runs(child.labels()) + "\">\n";
    if (policy == InjectionPolicy.OFF) return tag;
    List<Source> flagged = child.flagged();
    if (flagged.isEmpty()) return tag;
    List<String> labels = flagged.stream().map(Source::label).toList();
    List<String> rules = flagged.stream().flatMap(f -> f.guard().rules().stream()).distinct().toList();
    return tag + InjectionGuard.notesWarning(lang, labels, rules) + "\n";
  }

  /** Labels with consecutive runs written as ranges: {@code S1-S4 S7}. */
  static String runs(List<String> labels) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < labels.size(); ) {
      int first = Integer.parseInt(labels.get(i).substring(1));
      int j = i;
      while (j + 1 < labels.size() && Integer.parseInt(labels.get(j + 1).substring(1)) == first + (j + 1 - i)) j++;
      if (sb.length() > 0) sb.append(' ');
      sb.append(labels.get(i));
      if (j > i) sb.append('-').append(labels.get(j));
      i = j + 1;
    }
    return sb.toString();
  }

  private String question() {
    return "\n" + template.questionHeader() + "\n" + escapePlaceholders(query.strip()) + "\n";
  }

  private static int words(Node n, boolean sizing) {
    return sizing || n.maxOut <= 0 ? SIZING_WORDS : Math.max(16, n.maxOut * 3 / 4);
  }

  /** {@code {{step:} in retrieved text or the query, written so the executor never fills it. */
  static String escapePlaceholders(String s) {
    return s.contains("{{step:") ? s.replace("{{step:", "\uFF5B\uFF5Bstep:") : s;
  }

  /** The fence tag of notes and drafts in this plan's prompts ({@code notes} or {@code notes-<token>}). */
  String notesTag() {
    return notesTag;
  }
}
