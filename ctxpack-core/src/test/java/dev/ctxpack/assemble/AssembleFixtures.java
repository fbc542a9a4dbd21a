package dev.ctxpack.assemble;

import dev.ctxpack.model.Candidate;
import dev.ctxpack.model.Chunk;
import dev.ctxpack.model.DocInfo;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Scores;
import dev.ctxpack.model.Signal;
import dev.ctxpack.model.Span;
import dev.ctxpack.pack.DefaultContextPacker;
import dev.ctxpack.token.Tokenizer;
import dev.ctxpack.token.Tokenizers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Requests, tools and a packer over fixed candidates for the assembler's tests. */
final class AssembleFixtures {
  private AssembleFixtures() {}

  static ToolSpec tool(String name, String description, boolean pinned) {
    String schema = "{\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"description\":\"" + description
        + "\",\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"description\":\"what to look up\"}}}}}";
    return new ToolSpec(name, description, List.of(new ToolSpec.ToolParameter("q", "what to look up")), schema, pinned);
  }

  static Candidate candidate(String id, String docId, int start, String text, double score) {
    Chunk c = new Chunk(id, docId, new Span(start, start + text.length()), text, "", 0, Tokenizers.defaultTokenizer().count(text));
    return new Candidate(c, new DocInfo(docId, "file:///" + docId, "Title of " + docId, Language.EN, Map.of()),
        Scores.of(Signal.FUSED, score));
  }

  static DefaultContextPacker packer(List<Candidate> candidates) {
    return DefaultContextPacker.builder().retriever((q, o, t) -> candidates).build();
  }

  static List<Candidate> coffeeCandidates() {
    List<Candidate> out = new ArrayList<>();
    out.add(candidate("c1", "d1", 0, "Coffee beans are roasted at about 200 degrees Celsius for ten to fifteen minutes.", 0.9));
    out.add(candidate("c2", "d2", 0, "Light roasts keep more of the bean's acidity; dark roasts taste more bitter.", 0.8));
    out.add(candidate("c3", "d3", 0, "The roaster cools the beans quickly in a tray after the second crack.", 0.7));
    return out;
  }

  /** What {@code a} sends, counted independently of the assembler: every message, every tool, the reply priming. */
  static int recount(Assembly a, Tokenizer tok) {
    int n = MessageCost.REPLY_PRIMING;
    for (Assembly.Message m : a.messages()) n += MessageCost.of(m.turn(), tok);
    for (ToolSpec t : a.tools()) n += tok.count(t.schemaJson());
    return n;
  }
}
