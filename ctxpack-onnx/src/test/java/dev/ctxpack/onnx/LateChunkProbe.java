package dev.ctxpack.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
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
import java.util.List;
import java.util.Map;

/** Hand-run probe (not a test): sentence vectors mean-pooled from one pass over a document against the sentences embedded alone; docs/BENCHMARKS.md "The embedder". */
public final class LateChunkProbe {
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
    List<List<Span>> sents = new ArrayList<>();
    List<String> allSent = new ArrayList<>();
    for (String d : docs) {
      List<Span> s = new ArrayList<>();
      for (Span sp : seg.split(d, Language.EN)) if (!sp.of(d).isBlank()) { s.add(sp); allSent.add(sp.of(d)); }
      sents.add(s);
    }
    MiniLmEmbedder e = new MiniLmEmbedder(Runnable::run);
    e.embed("warm");
    long t0 = System.nanoTime();
    List<float[]> alone = e.embed(allSent);
    double tAlone = (System.nanoTime() - t0) / 1e9;
    t0 = System.nanoTime();
    e.embed(docs);
    double tDocs = (System.nanoTime() - t0) / 1e9;

    ClassLoader l = MiniLmEmbedder.class.getClassLoader();
    byte[] model = l.getResourceAsStream(MiniLmEmbedder.MODEL_RESOURCE).readAllBytes();
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    OrtSession session = env.createSession(model, InProcessModel.sessionOptions());
    System.out.println("outputs " + session.getOutputNames() + " inputs " + session.getInputNames());
    for (int max : new int[] {128, 256, 512}) {
      InputStream tj = l.getResourceAsStream(MiniLmEmbedder.TOKENIZER_RESOURCE);
      HuggingFaceTokenizer tok = HuggingFaceTokenizer.newInstance(tj, Map.of("padding", "false", "maxLength", "" + max, "truncation", "true"));
      t0 = System.nanoTime();
      double sumCos = 0, minCos = 1; int count = 0, missing = 0, k = 0, tokens = 0;
      for (int di = 0; di < docs.size(); di++) {
        String d = docs.get(di);
        Encoding enc = tok.encode(d);
        long[] ids = enc.getIds();
        tokens += ids.length;
        long[] shape = {1, ids.length};
        float[][] states;
        try (OnnxTensor a = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
            OnnxTensor b = OnnxTensor.createTensor(env, LongBuffer.wrap(enc.getAttentionMask()), shape);
            OnnxTensor c = OnnxTensor.createTensor(env, LongBuffer.wrap(enc.getTypeIds()), shape);
            OrtSession.Result res = session.run(Map.of("input_ids", a, "attention_mask", b, "token_type_ids", c))) {
          states = ((float[][][]) res.get(0).getValue())[0];
        }
        CharSpan[] spans = enc.getCharTokenSpans();
        for (Span s : sents.get(di)) {
          float[] v = new float[384]; int m = 0;
          for (int t = 0; t < spans.length; t++) {
            if (spans[t] == null) continue;
            if (spans[t].getStart() >= s.start() && spans[t].getStart() < s.end()) {
              for (int x = 0; x < 384; x++) v[x] += states[t][x];
              m++;
            }
          }
          float[] ref = alone.get(k++);
          if (m == 0) { missing++; continue; }
          Embedder.normalize(v);
          double cos = Embedder.dot(v, ref);
          sumCos += cos; minCos = Math.min(minCos, cos); count++;
        }
      }
      double t = (System.nanoTime() - t0) / 1e9;
      System.out.printf("max %d: %.2f s for %d docs (%d tokens), sentences pooled %d, missing %d, mean cos %.4f min %.4f%n",
          max, t, docs.size(), tokens, count, missing, sumCos / count, minCos);
    }
    System.out.printf("alone: %.2f s for %d sentences; docs embedded whole (128 trunc): %.2f s%n", tAlone, allSent.size(), tDocs);
  }
}
