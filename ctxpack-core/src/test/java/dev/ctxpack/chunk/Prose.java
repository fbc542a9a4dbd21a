package dev.ctxpack.chunk;

/** A realistic multi-paragraph English and Portuguese text of a few thousand tokens. */
final class Prose {
  private Prose() {}

  private static final String[] PARAGRAPHS = {
    "Retrieval-augmented generation gives a language model evidence that it did not see in training. "
        + "The retriever finds candidate passages, a reranker orders them, and the packer decides what fits. "
        + "Each of these steps can lose the one sentence that answers the question. "
        + "That is why every drop is recorded in the trace, with the rule that caused it.",
    "Chunking is the first decision and the hardest to undo. "
        + "Chunks that are too small lose their context; chunks that are too large waste the budget on text the model will skim. "
        + "A common default is about three hundred tokens with a modest overlap. "
        + "The overlap makes sure that a sentence cut at a boundary still appears whole in one of the two neighbours.",
    "A recuperação de documentos começa pela indexação. "
        + "O texto é normalizado, dividido em frases e depois em trechos de tamanho controlado. "
        + "Cada trecho guarda as posições exatas no documento original, para que a citação possa ser verificada. "
        + "Dr. Silva, responsável pelo projeto, lembra que a pág. 12 do manual descreve o formato.",
    "Tokens are counted with the encoding of the target model. "
        + "For GPT-4o that is o200k_base; older models use cl100k_base. "
        + "Models whose tokenizer is not available are counted with a close encoding and given a safety margin. "
        + "The margin is written into the trace, so nobody is surprised by it later.",
    "Deduplication runs in two passes. "
        + "The first pass is conservative and removes only exact copies, which are common when the same page is crawled twice. "
        + "The second pass groups near-duplicates and paraphrases, but never merges two passages that differ in a number, a date, a negation or a condition. "
        + "Merged passages keep every source, so the answer can still cite all of them.",
    "O orçamento de tokens é dividido entre o prompt do sistema, as ferramentas, o histórico, as memórias e as evidências. "
        + "A reserva de geração nunca é gasta. "
        + "Quando as evidências não cabem, os trechos menos relevantes são descartados primeiro, e cada descarte aparece no registro. "
        + "Assim é possível explicar por que uma informação ficou de fora.",
    "Ordering matters because models read the start and the end of a long context more carefully than the middle. "
        + "The strongest passage goes first and the second strongest goes last. "
        + "Alternatively, passages can be grouped by their source document and kept in document order, which reads more naturally. "
        + "Either way, the choice is recorded.",
    "Verification closes the loop. "
        + "Every citation in the answer must point to a source that was actually given. "
        + "Claims are checked against the cited text, and an answer that cannot be supported should say so instead of guessing. "
        + "The checks are simple, fast and deterministic.",
  };

  /** About 1,000 words in 32 paragraphs, separated by blank lines, with a heading every 8. */
  static String text() {
    StringBuilder sb = new StringBuilder();
    for (int round = 0; round < 4; round++) {
      sb.append("# Part ").append(round + 1).append("\n\n");
      for (String p : PARAGRAPHS) sb.append(p).append("\n\n");
    }
    return sb.toString();
  }
}
