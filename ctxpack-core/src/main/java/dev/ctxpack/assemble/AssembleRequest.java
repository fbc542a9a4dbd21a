package dev.ctxpack.assemble;

import dev.ctxpack.pack.PackOptions;
import dev.ctxpack.token.ModelProfile;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One window to assemble for {@code model}. {@code contextWindow} is the model's window (or the
 * caller's override); the tokens counted on are {@link #window()}: that window less the model's
 * safety margin when its tokenizer is approximated. {@code reserve} is kept free for the reply.
 * {@code retrieval} present means evidence is retrieved and packed for the query with those options
 * (its budget is the evidence's need; its model and reserve are ignored: the window decides).
 * {@code memoryUser} non-empty recalls at most {@code memoryK} facts and {@code memoryK} episodes of
 * that user from the {@link MemoryStore}, after the inline {@code memories}. {@code limits} holds
 * every component (defaults where the caller gave none). An empty {@code query} sends no final user
 * message; ranking and retrieval then use the last user turn of the history.
 */
public record AssembleRequest(
    ModelProfile model,
    int contextWindow,
    int reserve,
    String system,
    List<ToolSpec> tools,
    List<Turn> history,
    List<FewShot> fewShot,
    List<Memory> memories,
    String memoryUser,
    int memoryK,
    String query,
    Optional<PackOptions> retrieval,
    Map<Component, ComponentLimit> limits) {

  /** The default number of facts, and of episodes, recalled for a user. */
  public static final int DEFAULT_MEMORY_K = 5;

  public AssembleRequest {
    Objects.requireNonNull(model, "model");
    if (contextWindow <= 0) throw new IllegalArgumentException("window must be > 0, was " + contextWindow);
    if (reserve < 0) throw new IllegalArgumentException("reserve must be >= 0, was " + reserve);
    system = system == null ? "" : system;
    tools = tools == null ? List.of() : List.copyOf(tools);
    history = history == null ? List.of() : List.copyOf(history);
    fewShot = fewShot == null ? List.of() : List.copyOf(fewShot);
    memories = memories == null ? List.of() : List.copyOf(memories);
    memoryUser = memoryUser == null ? "" : memoryUser;
    if (memoryK < 0) throw new IllegalArgumentException("memory k must be >= 0, was " + memoryK);
    query = query == null ? "" : query.strip();
    retrieval = retrieval == null ? Optional.empty() : retrieval;
    EnumMap<Component, ComponentLimit> all = new EnumMap<>(Component.class);
    for (Component c : Component.values()) {
      ComponentLimit l = limits == null ? null : limits.get(c);
      all.put(c, l != null ? l : ComponentLimit.defaults(c));
    }
    limits = java.util.Collections.unmodifiableMap(all);
    java.util.Set<String> names = new java.util.HashSet<>();
    for (ToolSpec t : tools) {
      if (!names.add(t.name())) throw new IllegalArgumentException("tool '" + t.name() + "' is defined twice");
    }
    int usable = usable(contextWindow, model);
    if (usable - reserve <= 0) {
      throw new IllegalArgumentException("reserve " + reserve + " leaves nothing of the " + usable + "-token window of "
          + model.name());
    }
  }

  /** Tokens that can be counted on: the context window less the model's safety margin. */
  public int window() {
    return usable(contextWindow, model);
  }

  private static int usable(int contextWindow, ModelProfile model) {
    return (int) Math.floor(contextWindow * (1.0 - model.safetyMargin()) + 1e-6);
  }

  /** What the messages and tools may take: {@link #window()} less the reserve. */
  public int limit() {
    return window() - reserve;
  }

  public ComponentLimit limit(Component c) {
    return limits.get(c);
  }

  /** This request with another conversation: {@code history} before, {@code query} now. */
  public AssembleRequest withConversation(List<Turn> history, String query) {
    return new AssembleRequest(model, contextWindow, reserve, system, tools, history, fewShot, memories, memoryUser,
        memoryK, query, retrieval, limits);
  }

  public static Builder builder(ModelProfile model) {
    return new Builder(model);
  }

  /** A request with defaults: the model's window and reserve, no retrieval, every limit at its default. */
  public static final class Builder {
    private final ModelProfile model;
    private Integer window;
    private Integer reserve;
    private String system = "";
    private List<ToolSpec> tools = new ArrayList<>();
    private List<Turn> history = new ArrayList<>();
    private List<FewShot> fewShot = new ArrayList<>();
    private List<Memory> memories = new ArrayList<>();
    private String memoryUser = "";
    private int memoryK = DEFAULT_MEMORY_K;
    private String query = "";
    private PackOptions retrieval;
    private final Map<Component, ComponentLimit> limits = new EnumMap<>(Component.class);

    private Builder(ModelProfile model) {
      this.model = Objects.requireNonNull(model, "model");
    }

    public Builder window(int w) {
      this.window = w;
      return this;
    }

    public Builder reserve(int r) {
      this.reserve = r;
      return this;
    }

    public Builder system(String s) {
      this.system = s;
      return this;
    }

    public Builder tools(List<ToolSpec> t) {
      this.tools = new ArrayList<>(t);
      return this;
    }

    public Builder history(List<Turn> h) {
      this.history = new ArrayList<>(h);
      return this;
    }

    public Builder fewShot(List<FewShot> f) {
      this.fewShot = new ArrayList<>(f);
      return this;
    }

    public Builder memories(List<Memory> m) {
      this.memories = new ArrayList<>(m);
      return this;
    }

    /** Recalls {@code k} facts and {@code k} episodes of {@code user} from the memory store. */
    public Builder recall(String user, int k) {
      this.memoryUser = user;
      this.memoryK = k;
      return this;
    }

    public Builder query(String q) {
      this.query = q;
      return this;
    }

    /** Retrieves evidence with these options (null: none). */
    public Builder retrieval(PackOptions o) {
      this.retrieval = o;
      return this;
    }

    public Builder limit(Component c, ComponentLimit l) {
      limits.put(c, l);
      return this;
    }

    public AssembleRequest build() {
      return new AssembleRequest(model, window != null ? window : model.contextWindow(),
          reserve != null ? reserve : model.defaultReserve(), system, tools, history, fewShot, memories, memoryUser,
          memoryK, query, Optional.ofNullable(retrieval), limits);
    }
  }
}
