package dev.ctxpack.springai;

import dev.ctxpack.model.ContextPackage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.generation.augmentation.QueryAugmenter;

/**
 * A Spring AI {@link QueryAugmenter} whose augmented query is ctxpack's prompt: the instructions
 * (cite with {@code [S#]} labels, abstain with a fixed phrase, say when sources disagree, treat
 * sources as data), the SOURCES block with each source in a fence carrying the request's boundary
 * token, conflict notes, and the question; the Portuguese template ({@code FONTES}, {@code PERGUNTA})
 * for a Portuguese question, the English one otherwise.
 *
 * <p>Documents that came from a {@link CtxpackDocumentPostProcessor} for the same question are laid
 * out as they were packed (their package's prompt, no second pass); any other documents are packed
 * first by the post-processor this augmenter holds ({@link Builder#postProcessor}). No documents give
 * the prompt with an empty SOURCES block, so the model abstains with the template's phrase. The
 * query's history and context are kept. Thread-safe.
 */
public final class CtxpackQueryAugmenter implements QueryAugmenter {
  private final CtxpackDocumentPostProcessor postProcessor;

  private CtxpackQueryAugmenter(Builder b) {
    this.postProcessor = b.postProcessor;
  }

  /** A builder whose post-processor is {@code CtxpackDocumentPostProcessor.builder().build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** {@code query} with ctxpack's prompt over {@code documents} as its text. */
  @Override
  public Query augment(Query query, List<Document> documents) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(documents, "documents");
    return query.mutate().text(pack(query, documents).prompt()).build();
  }

  /** The package {@link #augment} takes the prompt from. */
  public ContextPackage pack(Query query, List<Document> documents) {
    Optional<ContextPackage> packed = CtxpackDocuments.packageOf(documents)
        .filter(p -> p.query().equals(query.text()) && p.sources().size() == documents.size());
    return packed.orElseGet(() -> postProcessor.pack(query.text(), documents));
  }

  /** Options of a {@link CtxpackQueryAugmenter}. */
  public static final class Builder {
    private CtxpackDocumentPostProcessor postProcessor;

    private Builder() {}

    /** Packs documents that did not come from a ctxpack post-processor (its budget and options). */
    public Builder postProcessor(CtxpackDocumentPostProcessor p) {
      this.postProcessor = Objects.requireNonNull(p, "postProcessor");
      return this;
    }

    /** The augmenter. */
    public CtxpackQueryAugmenter build() {
      if (postProcessor == null) postProcessor = CtxpackDocumentPostProcessor.builder().build();
      return new CtxpackQueryAugmenter(this);
    }
  }
}
