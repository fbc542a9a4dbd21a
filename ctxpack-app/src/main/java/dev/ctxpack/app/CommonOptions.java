package dev.ctxpack.app;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every index-using command shares. */
final class CommonOptions {
  enum Format { text, json }

  @Option(names = "--index", paramLabel = "DIR",
      description = "Index directory (default: $CTXPACK_INDEX or ./.ctxpack).")
  Path index;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "Output format: text (for people) or json (for machines). Default: ${DEFAULT-VALUE}.")
  Format format;

  @Option(names = "--embedder", paramLabel = "SPEC", defaultValue = "minilm",
      description = "Embedder: minilm (default, in-process), onnx:/path/model.onnx[,tokenizer=..][,pooling=cls],"
          + " or openai:MODEL (CTXPACK_EMBEDDINGS_URL, CTXPACK_EMBEDDINGS_KEY).")
  String embedder;

  Path indexPath() {
    if (index != null) return index;
    String env = System.getenv("CTXPACK_INDEX");
    return Path.of(env != null && !env.isBlank() ? env : ".ctxpack");
  }

  boolean json() {
    return format == Format.json;
  }
}
