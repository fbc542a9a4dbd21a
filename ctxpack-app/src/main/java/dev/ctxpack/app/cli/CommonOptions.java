package dev.ctxpack.app.cli;

import dev.ctxpack.app.UsageException;
import dev.ctxpack.index.IndexSpec;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every index-using command shares. */
final class CommonOptions {
  @Option(names = "--index", paramLabel = "SPEC",
      description = "Index: a directory, or lucene:DIR (default: $CTXPACK_INDEX or ./.ctxpack).")
  String index;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "Output: text (for people) or json (for machines). Default: ${DEFAULT-VALUE}.")
  Format format;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder: minilm (default, in-process), onnx:/path/model.onnx[,tokenizer=..][,pooling=cls],"
          + " or openai:MODEL (CTXPACK_EMBEDDINGS_URL, CTXPACK_EMBEDDINGS_KEY).")
  String embedder;

  /** The index named by --index, else $CTXPACK_INDEX, else the directory ./.ctxpack. */
  IndexSpec indexSpec() {
    return indexSpec(index);
  }

  /** The index {@code given} names (an --index value, may be null), else $CTXPACK_INDEX, else ./.ctxpack. */
  static IndexSpec indexSpec(String given) {
    if (given != null) return spec(given, "--index");
    String env = System.getenv("CTXPACK_INDEX");
    return env != null && !env.isBlank() ? spec(env, "CTXPACK_INDEX") : IndexSpec.ofPath(Path.of(".ctxpack"));
  }

  /** {@code text} as an index spec; a bad one is a usage error naming {@code where} it came from. */
  static IndexSpec spec(String text, String where) {
    try {
      return IndexSpec.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException(where + ": " + e.getMessage());
    }
  }

  boolean json() {
    return format == Format.json;
  }
}
