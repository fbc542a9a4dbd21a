package dev.ctxpack.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Span;
import dev.ctxpack.text.SentenceSegmenter;
import java.io.BufferedReader;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Hand-run probe (not a test): sentences batched by length, per ONNX optimization level, against one per run; docs/BENCHMARKS.md "The embedder". */
public final class BatchProbe {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    List<String> docs = new ArrayList<>();
    ObjectMapper om = new ObjectMapper();
    try (BufferedReader r = Files.newBufferedReader(Path.of(args[0]))) {
      String line;
      while ((line = r.readLine()) != null && docs.size() < n) {
        JsonNode j = om.readTree(line);
        docs.add(j.get("title").asText() + "\n\n" + j.get("text").asText());
      }
    }
    SentenceSegmenter seg = new SentenceSegmenter();
    List<String> allSent = new ArrayList<>();
    for (String d : docs) for (Span sp : seg.split(d, Language.EN)) if (!sp.of(d).isBlank()) allSent.add(sp.of(d));
    MiniLmEmbedder e = new MiniLmEmbedder(Runnable::run);
    e.embed("warm");
    long t0 = System.nanoTime();
    List<float[]> alone = e.embed(allSent);
    double tAlone = (System.nanoTime() - t0) / 1e9;
    System.out.printf("alone (MiniLmEmbedder, 1 thread): %.2f s for %d sentences%n", tAlone, allSent.size());
    ClassLoader l = MiniLmEmbedder.class.getClassLoader();
    byte[] model = l.getResourceAsStream(MiniLmEmbedder.MODEL_RESOURCE).readAllBytes();
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    InputStream tj = l.getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE);
    HuggingFaceTokenizer tok = HuggingFaceTokenizer.newInstance(tj, Map.of("padding", "false"));
    List<Encoding> encs = new ArrayList<>();
    for (String s : allSent) encs.add(tok.encode(s));
    Integer[] order = new Integer[encs.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    java.util.Arrays.sort(order, Comparator.comparingInt(i -> encs.get(i).getIds().length));
    String[] levels = args.length > 2 ? args[2].split(",") : new String[] {"ALL_OPT"};
    int[] batches = args.length > 3 ? java.util.Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray() : new int[] {1, 8, 32, 64};
    for (String level : levels) {
      OrtSession.SessionOptions o = InProcessModel.sessionOptions();
      o.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.valueOf(level));
      OrtSession session = env.createSession(model, o);
      for (int batch : batches) {
        for (int rep = 0; rep < 2; rep++) {
        float[][] out = new float[encs.size()][];
        t0 = System.nanoTime();
        for (int from = 0; from < order.length; from += batch) {
          int to = Math.min(order.length, from + batch);
          int len = 0;
          for (int k = from; k < to; k++) len = Math.max(len, encs.get(order[k]).getIds().length);
          int b = to - from;
          long[] ids = new long[b * len], mask = new long[b * len], types = new long[b * len];
          for (int k = from; k < to; k++) {
            long[] x = encs.get(order[k]).getIds();
            System.arraycopy(x, 0, ids, (k - from) * len, x.length);
            for (int t = 0; t < x.length; t++) mask[(k - from) * len + t] = 1;
          }
          long[] shape = {b, len};
          try (OnnxTensor a = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
              OnnxTensor m = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
              OnnxTensor c = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape);
              OrtSession.Result res = session.run(Map.of("input_ids", a, "attention_mask", m, "token_type_ids", c))) {
            float[][][] st = (float[][][]) res.get(0).getValue();
            for (int k = from; k < to; k++) {
              int L = encs.get(order[k]).getIds().length;
              float[] v = new float[384];
              for (int t = 0; t < L; t++) for (int x = 0; x < 384; x++) v[x] += st[k - from][t][x];
              out[order[k]] = Embedder.normalize(v);
            }
          }
        }
        double t = (System.nanoTime() - t0) / 1e9;
        double minCos = 1, sum = 0;
        for (int i = 0; i < out.length; i++) { double c = Embedder.dot(out[i], alone.get(i)); minCos = Math.min(minCos, c); sum += c; }
        System.out.printf("%s batch %d: %.2f s, cos to alone mean %.6f min %.6f%n", level, batch, t, sum / out.length, minCos);
        }
      }
      session.close();
    }
  }
}
