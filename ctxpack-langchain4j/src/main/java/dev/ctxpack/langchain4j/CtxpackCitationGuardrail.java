package dev.ctxpack.langchain4j;

import dev.ctxpack.embed.Embedder;
import dev.ctxpack.model.Language;
import dev.ctxpack.model.Source;
import dev.ctxpack.text.LanguageDetector;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import dev.ctxpack.verify.Verifier;
import dev.ctxpack.verify.VerifySource;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.guardrail.OutputGuardrailRequest;
import dev.langchain4j.guardrail.OutputGuardrailResult;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.content.Content;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An {@link OutputGuardrail} that checks the model's citations against the sources the request was
 * augmented with, after the model answers. Per answer:
 *
 * <ol>
 *   <li>the sources: those of the {@link PackedEvidence} of {@code
 *       requestParams().augmentationResult()} (contents packed by {@link CtxpackContentAggregator}),
 *       else the fenced sources of the augmented user message (a prompt {@link
 *       CtxpackContentInjector} packed), else the augmentation's contents labelled {@code S1}... in
 *       order; no augmentation or no sources: success;
 *   <li>ctxpack's verifier ({@link EvidenceVerifier#lexical()} by default) checks every claim
 *       ({@code [S1]} citations inline) against the sentences of the sources it cites;
 *   <li>more invented ids than {@link Builder#maxInvented} (0), contradicted claims than {@link
 *       Builder#maxContradicted} (0) or unsupported and uncited claims than {@link
 *       Builder#maxUnsupported} (unlimited) is a {@code reprompt} whose message is ctxpack's feedback
 *       (one line per problem, in the answer's language) between a lead-in and a request to answer
 *       again in the question's language; otherwise success;
 *   <li>the {@link CitationVerdict} goes to the {@link Builder#listener}, on the calling thread.
 * </ol>
 *
 * LangChain4j retries a reprompt up to {@code OutputGuardrailsConfig.maxRetries} (2 by default) and
 * then throws {@code OutputGuardrailException}. Thread-safe.
 *
 * <pre>{@code
 * Assistant a = AiServices.builder(Assistant.class).chatModel(model).retrievalAugmentor(augmentor)
 *     .outputGuardrails(CtxpackCitationGuardrail.builder().listener(verdicts::add).build()).build();
 * }</pre>
 */
public final class CtxpackCitationGuardrail implements OutputGuardrail {
  private static final LanguageDetector LANGUAGES = new LanguageDetector();
  private final Verifier verifier;
  private final int maxInvented;
  private final int maxContradicted;
  private final int maxUnsupported;
  private final Consumer<CitationVerdict> listener;

  private CtxpackCitationGuardrail(Builder b) {
    this.verifier = b.verifier != null ? b.verifier : EvidenceVerifier.lexical();
    this.maxInvented = b.maxInvented;
    this.maxContradicted = b.maxContradicted;
    this.maxUnsupported = b.maxUnsupported;
    this.listener = b.listener;
  }

  /** A builder: the lexical verifier, no invented id or contradicted claim allowed, unsupported claims allowed. */
  public static Builder builder() {
    return new Builder();
  }

  /** Verifies the answer against the augmentation's sources; a reprompt with ctxpack's feedback when it fails. */
  @Override
  public OutputGuardrailResult validate(OutputGuardrailRequest request) {
    AugmentationResult aug = request.requestParams().augmentationResult();
    AiMessage message = request.responseFromLLM().aiMessage();
    if (aug == null || message == null || message.text() == null) return success();
    String query;
    List<VerifySource> sources = new ArrayList<>();
    Optional<PackedEvidence> packed = PackedEvidence.of(aug);
    if (packed.isPresent()) {
      query = packed.get().query();
      for (Source s : packed.get().pack().sources()) sources.add(new VerifySource(s.label(), s.text()));
    } else {
      String prompt = CtxpackTokenCountEstimator.text(aug.chatMessage());
      sources.addAll(PromptSources.sources(prompt));
      query = PromptSources.question(prompt);
      if (sources.isEmpty()) {
        int n = 1;
        for (Content c : aug.contents()) sources.add(new VerifySource("S" + n++, c.textSegment().text()));
      }
    }
    if (sources.isEmpty()) return success();
    String answer = message.text();
    Verification v;
    try {
      v = verifier.verify(query, sources, Answer.parse(answer));
    } catch (IOException e) {
      return failure("the citation check could not run: " + e.getMessage(), e);
    }
    long contradicted = v.claims().stream().filter(c -> c.verdict() == Verdict.CONTRADICTED).count();
    long unsupported = v.claims().stream()
        .filter(c -> c.verdict() == Verdict.UNSUPPORTED || c.verdict() == Verdict.UNCITED).count();
    int invented = v.invalidCitations().size();
    boolean fail = invented > maxInvented || contradicted > maxContradicted || unsupported > maxUnsupported;
    listener.accept(new CitationVerdict(v, sources, answer, fail));
    if (!fail) return success();
    String why = "citation check failed: " + invented + " invented id(s) " + v.invalidCitations() + ", " + contradicted
        + " contradicted and " + unsupported + " unsupported claim(s)";
    return reprompt(why, repromptText(query, v.feedback()));
  }

  /** The reprompt: a lead-in, ctxpack's feedback and the request to answer again, in the question's language. */
  static String repromptText(String query, String feedback) {
    boolean pt = query != null && LANGUAGES.detect(query) == Language.PT;
    String body = feedback == null || feedback.isBlank() ? "" : feedback.strip() + "\n";
    return pt
        ? "A sua resposta anterior não passou na verificação das citações:\n" + body
            + "Responda de novo à pergunta usando apenas as fontes fornecidas, citando cada frase factual com o rótulo da"
            + " fonte que a sustenta, entre colchetes."
        : "Your previous answer did not pass the citation check:\n" + body
            + "Answer the question again using only the sources given, citing every factual sentence with the label of"
            + " the source that supports it, in square brackets.";
  }

  /** Options of a {@link CtxpackCitationGuardrail}. */
  public static final class Builder {
    private Verifier verifier;
    private int maxInvented;
    private int maxContradicted;
    private int maxUnsupported = Integer.MAX_VALUE;
    private Consumer<CitationVerdict> listener = v -> { };

    private Builder() {}

    /** The verifier; {@link EvidenceVerifier#lexical()} by default. */
    public Builder verifier(Verifier v) {
      this.verifier = Objects.requireNonNull(v, "verifier");
      return this;
    }

    /** Semantic support too: {@link EvidenceVerifier#withEmbedder(Embedder)} (e.g. ctxpack-onnx's MiniLmEmbedder). */
    public Builder embedder(Embedder e) {
      this.verifier = EvidenceVerifier.withEmbedder(Objects.requireNonNull(e, "embedder"));
      return this;
    }

    /** How many cited ids that name no source an answer may have (default 0). */
    public Builder maxInvented(int n) {
      if (n < 0) throw new IllegalArgumentException("maxInvented must be >= 0, was " + n);
      this.maxInvented = n;
      return this;
    }

    /** How many claims a cited source may contradict (default 0). */
    public Builder maxContradicted(int n) {
      if (n < 0) throw new IllegalArgumentException("maxContradicted must be >= 0, was " + n);
      this.maxContradicted = n;
      return this;
    }

    /** How many claims may be unsupported by their citations or uncited (default: any number, not checked). */
    public Builder maxUnsupported(int n) {
      if (n < 0) throw new IllegalArgumentException("maxUnsupported must be >= 0, was " + n);
      this.maxUnsupported = n;
      return this;
    }

    /** Called with every answer's {@link CitationVerdict}; a no-op by default. */
    public Builder listener(Consumer<CitationVerdict> l) {
      this.listener = Objects.requireNonNull(l, "listener");
      return this;
    }

    /** The guardrail. */
    public CtxpackCitationGuardrail build() {
      return new CtxpackCitationGuardrail(this);
    }
  }
}
