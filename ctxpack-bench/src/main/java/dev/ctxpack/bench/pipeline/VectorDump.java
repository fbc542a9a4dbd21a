package dev.ctxpack.bench.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether MiniLM gives the same vectors on two machines: {@code dump} writes the shipped model's
 * vector of each of the first {@code N} texts of a BEIR corpus (title and text, as ingest's windows
 * start) to a file, and {@code compare} reads two such files and prints how many vectors are
 * identical and the smallest and mean cosine between them. Run {@code dump} on each machine, or on
 * one machine natively and under {@code qemu-x86_64 -cpu Haswell} (a CPU without AVX-512 or VNNI),
 * then {@code compare}. Hand-run; docs/BENCHMARKS.md, "The same vectors on every CPU".
 *
 * <pre>
 * java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.pipeline.VectorDump dump CORPUS.jsonl 200 A.bin
 * java -cp ctxpack-bench/target/ctxpack-bench.jar dev.ctxpack.bench.pipeline.VectorDump compare A.bin B.bin
 * </pre>
 */
public final class VectorDump {
  private VectorDump() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 4 && args[0].equals("dump")) {
      dump(Path.of(args[1]), Integer.parseInt(args[2]), Path.of(args[3]));
    } else if (args.length == 3 && args[0].equals("compare")) {
      System.out.println(compare(Path.of(args[1]), Path.of(args[2])));
    } else {
      System.err.println("usage: VectorDump dump CORPUS.jsonl N OUT | VectorDump compare A B");
      System.exit(2);
    }
  }

  /** The first {@code n} texts of a BEIR corpus ({@code title + "\n" + text}, at most 600 characters). */
  static List<String> texts(Path corpus, int n) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(corpus)) {
      for (String line = r.readLine(); line != null && out.size() < n; line = r.readLine()) {
        if (line.isBlank()) continue;
        JsonNode d = json.readTree(line);
        String t = (d.path("title").asText("") + "\n" + d.path("text").asText("")).strip();
        if (!t.isEmpty()) out.add(t.substring(0, Math.min(t.length(), 600)));
      }
    }
    return out;
  }

  /** How two dumps of the same texts differ. */
  record Comparison(int vectors, int identical, int belowFourNines, double minCosine, double meanCosine) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%d vectors: %d identical, %d with cosine < 0.9999; cosine min %.6f, mean %.6f",
          vectors, identical, belowFourNines, minCosine, meanCosine);
    }
  }

  static void dump(Path corpus, int n, Path out) throws IOException {
    List<String> texts = texts(corpus, n);
    Embedder e = new MiniLmEmbedder();
    Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), out.getFileName().toString(), ".tmp");
    try (OutputStream os = Files.newOutputStream(tmp);
        DataOutputStream d = new DataOutputStream(new java.io.BufferedOutputStream(os))) {
      d.writeInt(texts.size());
      d.writeInt(e.dimension());
      for (String t : texts) for (float f : e.embed(t)) d.writeFloat(f);
    } catch (IOException | RuntimeException ex) {
      Files.deleteIfExists(tmp);
      throw ex;
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    System.out.println(texts.size() + " vectors of " + e.id() + " written to " + out);
  }

  private static float[][] read(Path p) throws IOException {
    long size = Files.size(p);
    try (InputStream is = Files.newInputStream(p);
        DataInputStream d = new DataInputStream(new java.io.BufferedInputStream(is))) {
      int n = size < 8 ? -1 : d.readInt();
      int dim = size < 8 ? 0 : d.readInt();
      if (n < 0 || dim < 1 || size != 8 + 4L * n * dim) {
        throw new IOException(p + " is not a complete VectorDump file: its header says " + n + " vectors of "
            + dim + ", its size is " + size + " bytes");
      }
      float[][] v = new float[n][dim];
      for (float[] row : v) for (int i = 0; i < dim; i++) row[i] = d.readFloat();
      return v;
    }
  }

  static Comparison compare(Path a, Path b) throws IOException {
    float[][] x = read(a);
    float[][] y = read(b);
    if (x.length == 0 || y.length == 0) throw new IOException("no vectors to compare in " + (x.length == 0 ? a : b));
    if (x.length != y.length || x[0].length != y[0].length) {
      throw new IOException(a + " and " + b + " do not hold the same number of vectors of one dimension: "
          + x.length + " against " + y.length);
    }
    int identical = 0;
    int below = 0;
    double min = 1;
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      if (java.util.Arrays.equals(x[i], y[i])) identical++;
      double c = Embedder.dot(x[i], y[i]); // unit vectors: the dot product is the cosine
      if (c < 0.9999) below++;
      min = Math.min(min, c);
      sum += c;
    }
    return new Comparison(x.length, identical, below, min, sum / x.length);
  }
}
