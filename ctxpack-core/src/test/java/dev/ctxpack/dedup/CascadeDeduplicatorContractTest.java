package dev.ctxpack.dedup;

/** The cascade as the packer runs it before reranking: exact, near and overlap levels. */
class CascadeDeduplicatorContractTest extends DeduplicatorContract {
  @Override
  protected Deduplicator deduplicator() {
    return new CascadeDeduplicator(DedupOptions.conservative());
  }
}
