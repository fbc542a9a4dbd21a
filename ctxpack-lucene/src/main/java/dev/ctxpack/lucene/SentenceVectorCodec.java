package dev.ctxpack.lucene;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.index.ChunkVector;
import dev.ctxpack.index.SearchableIndex.SentenceVector;
import dev.ctxpack.model.Span;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.util.BytesRef;

/**
 * The stored form of one chunk's sentence vectors: one binary value per chunk, each vector scalar
 * quantised to 8 bits (a per-vector scale, {@code max |x| / 127}, then one signed byte per
 * dimension), so a 384-dimension sentence takes 396 bytes instead of 1,544 as floats.
 *
 * <p>Layout, big-endian: {@code byte version (1), int count, int dimension}, then per sentence in
 * order {@code int start, int end} (document offsets), {@code float scale}, {@code dimension} bytes.
 * Quantisation keeps the direction to a cosine above 0.999 for embedding vectors; read back, each
 * vector is re-normalised to unit length. Public for the other backends that store sentence
 * vectors in one binary value per chunk (ctxpack-solr).
 */
public final class SentenceVectorCodec {
  public static final byte VERSION = 1;
  private static final int HEADER = 1 + 4 + 4;

  private SentenceVectorCodec() {}

  /** Encodes {@code vectors} (all of one chunk, same dimension) in span order; null when there are none. */
  public static BytesRef encode(List<ChunkVector> vectors) {
    if (vectors.isEmpty()) return null;
    List<ChunkVector> sorted = new ArrayList<>(vectors);
    sorted.sort(Comparator.comparing(ChunkVector::span));
    int dim = sorted.get(0).vector().length;
    ByteBuffer b = ByteBuffer.allocate(HEADER + sorted.size() * (12 + dim));
    b.put(VERSION).putInt(sorted.size()).putInt(dim);
    for (ChunkVector v : sorted) {
      float[] x = v.vector();
      if (x.length != dim) throw new IllegalArgumentException("sentence vectors of " + dim + " and " + x.length + " dimensions");
      float max = 0;
      for (float f : x) max = Math.max(max, Math.abs(f));
      float scale = max / 127f;
      b.putInt(v.span().start()).putInt(v.span().end()).putFloat(scale);
      for (float f : x) {
        int q = scale == 0 ? 0 : Math.round(f / scale);
        b.put((byte) Math.max(-127, Math.min(127, q)));
      }
    }
    return new BytesRef(b.array());
  }

  /** Decodes a stored value into unit vectors in sentence order. */
  public static List<SentenceVector> decode(String docId, BytesRef bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes.bytes, bytes.offset, bytes.length);
    byte version = b.get();
    if (version != VERSION) {
      throw new IllegalStateException("sentence vectors of chunk in " + docId + " are stored in format " + version
          + "; this version reads format " + VERSION);
    }
    int n = b.getInt();
    int dim = b.getInt();
    List<SentenceVector> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int start = b.getInt();
      int end = b.getInt();
      float scale = b.getFloat();
      float[] v = new float[dim];
      for (int d = 0; d < dim; d++) v[d] = b.get() * scale;
      out.add(new SentenceVector(docId, new Span(start, end), Embedder.normalize(v)));
    }
    return out;
  }
}
