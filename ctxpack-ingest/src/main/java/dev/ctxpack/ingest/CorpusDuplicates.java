package dev.ctxpack.ingest;

import dev.ctxpack.similarity.Boilerplate;
import dev.ctxpack.similarity.LshIndex;
import dev.ctxpack.similarity.MinHasher;
import dev.ctxpack.index.CorpusMarks;
import dev.ctxpack.index.CorpusCatalog;
import dev.ctxpack.index.DuplicateRecord;
import dev.ctxpack.index.WritableIndex;
import dev.ctxpack.index.IndexEntry;
import dev.ctxpack.model.Chunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Corpus-level duplicates during one ingestion (ctxpack 0.1). Each document to write gets its
 * MinHash signature over word shingles ({@link MinHasher}, {@value MinHasher#DEFAULT_SHINGLE}-word
 * shingles, folded case and accents) and its LSH band keys ({@link LshIndex}); it is compared with
 * the documents already in the index that share a band (their signatures are stored with them, so
 * a document ingested later is still compared with earlier ones) and with those written earlier in
 * this run and not yet committed (held in memory until then). When the most similar one is estimated at or above
 * {@code nearJaccard}, the document is marked {@code near-duplicate-of} it: still indexed, its
 * content hash unchanged. The first document ingested is the original; the later one is marked.
 *
 * <p>It also counts, per normalised chunk key ({@link Boilerplate#key}), the chunks written in this
 * run, so that the summary can say how many of them are boilerplate once committed. Not thread-safe:
 * one per ingestion.
 */
final class CorpusDuplicates {
  /** The default estimated Jaccard of word shingles at and above which a document is a near-duplicate. */
  static final double DEFAULT_NEAR_JACCARD = 0.8;

  private final WritableIndex index;
  private final CorpusCatalog catalog;
  private final double nearJaccard;
  private final MinHasher hasher = MinHasher.defaults();
  private LshIndex run = LshIndex.forHasher(hasher);
  private final List<String> runIds = new ArrayList<>();
  private final List<int[]> runSignatures = new ArrayList<>();
  private final Map<String, Integer> chunkKeys = new HashMap<>();
  private final List<IngestSummary.DuplicateOf> found = new ArrayList<>();

  /** {@code nearJaccard} in (0, 1]. */
  CorpusDuplicates(WritableIndex index, CorpusCatalog catalog, double nearJaccard) {
    if (!(nearJaccard > 0 && nearJaccard <= 1)) {
      throw new IllegalArgumentException("near-duplicate Jaccard must be in (0, 1], was " + nearJaccard);
    }
    this.index = index;
    this.catalog = catalog;
    this.nearJaccard = nearJaccard;
  }

  /** Records a file that repeats stored document {@code of} exactly, and is not indexed. */
  void exact(WritableIndex.Batch batch, String path, String docId, String of) throws IOException {
    found.add(new IngestSummary.DuplicateOf(path, docId, of, false, 1.0));
    batch.recordDuplicate(new DuplicateRecord(path, docId, of));
  }

  /**
   * The entries with their corpus marks: signature, band keys, file time and, for a near-duplicate,
   * the document it repeats. {@code replaced} are ids this file's write deletes (its previous
   * version): never an original.
   */
  List<IndexEntry> mark(List<IndexEntry> entries, String path, long fileTime, Collection<String> replaced) throws IOException {
    List<int[]> signatures = entries.parallelStream().map(e -> hasher.signature(e.doc().text())).toList();
    List<List<String>> keys = entries.parallelStream()
        .map(e -> e.chunks().stream().map(c -> Boilerplate.key(c.text())).toList())
        .toList();
    // The band keys of every entry, and the stored documents sharing any of them asked for at once
    // (one lookup per slice, not per document: a remote index pays a round trip per lookup); each
    // entry then compares only those sharing one of its own bands.
    List<List<String>> entryBands = new ArrayList<>(entries.size());
    java.util.Set<String> union = new java.util.LinkedHashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      int[] sig = signatures.get(i);
      List<String> bands = bandKeys(sig);
      entryBands.add(bands);
      if (sig[0] != MinHasher.EMPTY) union.addAll(bands);
    }
    List<WritableIndex.SignedDoc> stored = union.isEmpty() ? List.of() : index.documentsSharingBands(union);
    List<java.util.Set<String>> storedBands = new ArrayList<>(stored.size());
    for (WritableIndex.SignedDoc d : stored) {
      boolean comparable = d.signature() != null && d.signature().length == signatures.get(0).length;
      storedBands.add(comparable ? new java.util.HashSet<>(bandKeys(d.signature())) : java.util.Set.of());
    }
    List<IndexEntry> out = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      IndexEntry e = entries.get(i);
      int[] sig = signatures.get(i);
      List<String> bands = entryBands.get(i);
      String id = e.doc().id();
      String best = "";
      double bestSim = -1;
      boolean empty = sig[0] == MinHasher.EMPTY;
      if (!empty) {
        for (int s = 0; s < stored.size(); s++) {
          WritableIndex.SignedDoc d = stored.get(s);
          if (d.signature() == null || d.id().equals(id) || replaced.contains(d.id()) || d.signature().length != sig.length) continue;
          if (java.util.Collections.disjoint(storedBands.get(s), bands)) continue;
          double sim = MinHasher.similarity(sig, d.signature());
          if (sim > bestSim || (sim == bestSim && d.id().compareTo(best) < 0)) {
            best = d.id();
            bestSim = sim;
          }
        }
        for (int item : run.query(sig, nearJaccard - 0.1)) {
          String other = runIds.get(item);
          if (other.equals(id) || replaced.contains(other)) continue;
          double sim = MinHasher.similarity(sig, runSignatures.get(item));
          if (sim > bestSim || (sim == bestSim && other.compareTo(best) < 0)) {
            best = other;
            bestSim = sim;
          }
        }
      }
      boolean near = bestSim >= nearJaccard;
      if (near) found.add(new IngestSummary.DuplicateOf(path, id, best, true, bestSim));
      out.add(e.withCorpus(new CorpusMarks(sig, bands, near ? best : "", near ? bestSim : 0, fileTime, keys.get(i))));
      if (!empty) {
        run.add(sig);
        runIds.add(id);
        runSignatures.add(sig);
      }
      for (String k : keys.get(i)) chunkKeys.merge(k, 1, Integer::sum);
    }
    return out;
  }

  /** The LSH band keys of {@code sig}, as the index stores them ({@code BAND:HEX}). */
  private List<String> bandKeys(int[] sig) {
    List<String> bands = new ArrayList<>(LshIndex.DEFAULT_BANDS);
    for (int j = 0; j < LshIndex.DEFAULT_BANDS; j++) bands.add(j + ":" + Integer.toHexString(run.bandKey(sig, j)));
    return bands;
  }

  /**
   * Called after each commit: what was written is now found through the index, so the in-memory
   * LSH of this run starts again (memory stays bounded by the documents of one commit).
   */
  void committed() {
    run = LshIndex.forHasher(hasher);
    runIds.clear();
    runSignatures.clear();
  }

  /** Exact and near duplicates found in this run, in the order found. */
  List<IngestSummary.DuplicateOf> found() {
    return List.copyOf(found);
  }

  /**
   * How many chunks written in this run are boilerplate now that the run is committed: their text
   * is held by at least {@link Boilerplate#DEFAULT_MIN_DOCUMENTS} stored documents.
   */
  int boilerplateChunks() throws IOException {
    if (chunkKeys.isEmpty()) return 0;
    Set<String> recurring = new java.util.HashSet<>();
    for (CorpusCatalog.Recurring r : catalog.recurringChunks(Boilerplate.DEFAULT_MIN_DOCUMENTS)) recurring.add(r.key());
    int n = 0;
    for (var en : chunkKeys.entrySet()) if (recurring.contains(en.getKey())) n += en.getValue();
    return n;
  }
}
