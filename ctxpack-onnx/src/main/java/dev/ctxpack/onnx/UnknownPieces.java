package dev.ctxpack.onnx;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Counts the unknown word pieces a model's own tokenizer (the same {@code tokenizer.json}) cuts a
 * text into, for {@link dev.ctxpack.embed.Embedder#readableShare}. The unknown piece is the one
 * {@code tokenizer.json} names ({@code model.unk_token} for WordPiece and BPE, the {@code
 * model.unk_id} entry of the vocabulary for Unigram); a tokenizer that names none has no unknown
 * piece, and every text is readable. Padding is off and special tokens are not added, so only the
 * text's own pieces count; the file's truncation stays, so the share is of what reaches the model.
 * Thread-safe (the native tokenizer is immutable); it lives as long as its model.
 */
final class UnknownPieces {
  private final HuggingFaceTokenizer tokenizer;
  private final String unknown;

  private UnknownPieces(HuggingFaceTokenizer tokenizer, String unknown) {
    this.tokenizer = tokenizer;
    this.unknown = unknown;
  }

  /** The counter for {@code tokenizerJson}; one that never finds an unknown piece if the file names none. */
  static UnknownPieces of(byte[] tokenizerJson) throws IOException {
    String unknown = unknownToken(new ObjectMapper().readTree(tokenizerJson));
    if (unknown == null) return new UnknownPieces(null, null);
    HuggingFaceTokenizer t = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson),
        Map.of("padding", "false"));
    return new UnknownPieces(t, unknown);
  }

  /** The share of {@code text}'s word pieces that are not the unknown piece; 1 when it has none. */
  double readableShare(String text) {
    if (tokenizer == null || text == null || text.isEmpty()) return 1.0;
    String[] pieces = tokenizer.encode(text, false, false).getTokens();
    if (pieces.length == 0) return 1.0;
    int unknownPieces = 0;
    for (String p : pieces) if (unknown.equals(p)) unknownPieces++;
    return 1.0 - (double) unknownPieces / pieces.length;
  }

  private static String unknownToken(JsonNode tokenizer) {
    JsonNode model = tokenizer.path("model");
    JsonNode token = model.path("unk_token");
    if (token.isTextual() && !token.asText().isEmpty()) return token.asText();
    JsonNode id = model.path("unk_id");
    JsonNode vocab = model.path("vocab");
    if (id.canConvertToInt() && vocab.isArray() && id.asInt() >= 0 && id.asInt() < vocab.size()) {
      JsonNode entry = vocab.get(id.asInt());
      JsonNode piece = entry.isArray() ? entry.path(0) : entry;
      if (piece.isTextual()) return piece.asText();
    }
    return null;
  }
}
