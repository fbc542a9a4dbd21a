package dev.ctxpack.bench.compress;

import dev.ctxpack.compress.ExtractiveCompressor;
import dev.ctxpack.compress.FeatureSentenceScorer;
import dev.ctxpack.compress.SentenceVectors;
import dev.ctxpack.onnx.MiniLmEmbedder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Hand-run: do MiniLM's token states help the Portuguese (lexical) model? FaQuAD FIT, 5-fold CV. */
public final class PtTokenProbe {
  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    FeatureSentenceScorer features = FeatureSentenceScorer.defaults(SentenceVectors.embedder(new MiniLmEmbedder()));
    ExtractiveCompressor seg = ExtractiveCompressor.builder().scorer(features).build();
    Path faquad = data.resolve("faquad/train.json");
    List<FitCompressor.Group> lexical = FitCompressor.groups(faquad, CompressData.Half.FIT, 0, features, seg, false, false);
    List<FitCompressor.Group> tokens = FitCompressor.groups(faquad, CompressData.Half.FIT, 0, features, seg, false, true);
    System.out.printf(Locale.ROOT, "%d FaQuAD FIT questions%n", lexical.size());
    System.out.printf(Locale.ROOT, "tok_idf alone MRR %.4f, bm25_rel alone %.4f%n", FitCompressor.single(tokens, 33), FitCompressor.single(tokens, 0));
    for (double lambda : FitCompressor.LAMBDAS) {
      System.out.printf(Locale.ROOT, "lambda %s lexical CV MRR %.4f top1 %.3f | + tokens %.4f top1 %.3f%n", lambda,
          FitCompressor.crossValidate(lexical, lambda), MaxSimProbe.top1(lexical, lambda),
          FitCompressor.crossValidate(tokens, lambda), MaxSimProbe.top1(tokens, lambda));
    }
  }
}
