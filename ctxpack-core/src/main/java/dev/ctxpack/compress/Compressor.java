package dev.ctxpack.compress;

import java.io.IOException;
import java.util.List;

/** Query-aware extractive compression: keeps verbatim spans of the inputs, never rewrites them. */
public interface Compressor {
  Compression compress(String query, List<CompressInput> inputs, CompressOptions options) throws IOException;
}
