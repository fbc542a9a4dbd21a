package dev.ctxpack.bench;

import dev.ctxpack.bench.pipeline.IngestResult;
import java.util.List;

/** Everything measured on one data set in one run. */
record DatasetResult(
    String dataset,
    int corpusDocs,
    int indexedDocs,
    int chunks,
    int queriesInFile,
    int evaluated,
    List<String> excluded,
    List<IngestResult> ingest,
    List<MethodResult> methods,
    List<PairedTest.Comparison> comparisons,
    List<String> targets,
    List<String> notes) {}
