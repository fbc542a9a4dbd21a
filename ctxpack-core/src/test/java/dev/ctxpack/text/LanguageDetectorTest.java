package dev.ctxpack.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctxpack.model.Language;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LanguageDetectorTest {
  private final LanguageDetector detector = new LanguageDetector();

  @ParameterizedTest(name = "PT: {0}")
  @ValueSource(strings = {
      "Qual é a capital do Brasil?",
      "Onde fica o banheiro?",
      "Como faço para cancelar minha assinatura?",
      "Quem escreveu Dom Casmurro?",
      "Quanto custa o frete para Lisboa?",
      "O contrato pode ser rescindido a qualquer momento, desde que o cliente avise com trinta dias de antecedência.",
      "A reunião foi adiada para a próxima semana porque o diretor está viajando.",
      "Os resultados mostram que a vacina reduziu as internações em mais de 80% entre os idosos.",
      "Segundo o relatório, a inflação acumulada nos últimos doze meses ficou acima da meta.",
      "Não é possível emitir a nota fiscal sem o CNPJ do destinatário.",
      // without accents, as typed on phones and in chats
      "Voce pode me ajudar com isso?",
      "Nao consigo acessar minha conta desde ontem",
      "Como eu faco para trocar a senha do email?",
      "Ele disse que ia chegar cedo mas ate agora nada",
      // Portuguese with English loanwords
      "O deploy do backend falhou depois do merge na branch main.",
      "Preciso fazer login no app para ver o dashboard de vendas.",
      "O time de marketing vai lançar a campanha de e-mail na Black Friday.",
      "Qual é o melhor framework para machine learning em Python?",
      "Fiz o download do software mas o setup não abre no meu notebook.",
      "Instalei o Docker mas o container não sobe",
      "Quero cancelar o pedido número 4521",
      // short: one function word and no sign of English
      "Quanto tempo dura a torra?",
      "Onde comprar grãos torrados",
  })
  void detectsPortuguese(String text) {
    assertThat(detector.detect(text)).isEqualTo(Language.PT);
  }

  @ParameterizedTest(name = "EN: {0}")
  @ValueSource(strings = {
      "What is the capital of Brazil?",
      "Where is the bathroom?",
      "How do I reset my password?",
      "Who wrote Pride and Prejudice?",
      "Why is the sky blue?",
      "Can you help me with this?",
      "Is it going to rain tomorrow?",
      "The contract may be terminated at any time, provided that the customer gives thirty days notice.",
      "The meeting was postponed to next week because the director is traveling.",
      "Results show that the vaccine reduced hospital admissions by more than 80% among older adults.",
      "According to the report, inflation over the last twelve months was above the target.",
      "You cannot issue an invoice without the recipient's tax number.",
      "I can't log in to my account since yesterday",
      "Who discovered Brazil?",
      "The server went down during peak traffic.",
      "Let's talk after lunch",
      // English with Portuguese names and words
      "We flew from São Paulo to Belo Horizonte and ate pão de queijo at the airport.",
      "The samba school from Rio de Janeiro won the parade again this year.",
      // short: one function word and no sign of Portuguese
      "Roasting time please?",
  })
  void detectsEnglish(String text) {
    assertThat(detector.detect(text)).isEqualTo(Language.EN);
  }

  @ParameterizedTest(name = "UNKNOWN: \"{0}\"")
  @ValueSource(strings = {"", "   ", "12345 678,90", "2024-01-15 10:32:00", "ok", "Brasil", "quanto", "Lisboa Porto Braga", "!!! ??? ...", "😀😀😀", "東京は日本の首都です"})
  void tooLittleEvidenceIsUnknown(String text) {
    assertThat(detector.detect(text)).isEqualTo(Language.UNKNOWN);
  }

  @Test
  void longDocumentsAreDetectedFromTheirStart() {
    String pt = "O sistema de arquivos guarda os dados em blocos e mantém um diário das alterações. ".repeat(400);
    String en = "The file system stores data in blocks and keeps a journal of the changes. ".repeat(400);
    assertThat(detector.detect(pt)).isEqualTo(Language.PT);
    assertThat(detector.detect(en)).isEqualTo(Language.EN);
    assertThat(detector.detect(pt + en)).as("only the first 20,000 chars are read").isEqualTo(Language.PT);
  }

  /** Short queries used to come back UNKNOWN for want of evidence: one function word was not enough. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "PT|Quem escreveu Dom Casmurro?",
      "PT|Nao consigo acessar minha conta desde ontem",
      "PT|Tudo bem com voce?",
      "PT|Vou viajar amanhã cedo",
      "PT|O jogo terminou empatado",
      "EN|How do I reset my password?",
      "EN|I need help with my order",
      "EN|My computer won't turn on anymore",
      "EN|I will travel early tomorrow",
  })
  void regressionShortQueriesWereUnknown(String example) {
    String[] parts = example.split("\\|", 2);
    assertThat(detector.detect(parts[1])).isEqualTo(Language.valueOf(parts[0]));
  }

  @Test
  void caseAndPunctuationDoNotMatter() {
    assertThat(detector.detect("QUAL É A CAPITAL DO BRASIL?")).isEqualTo(Language.PT);
    assertThat(detector.detect("WHAT IS THE CAPITAL OF BRAZIL?!")).isEqualTo(Language.EN);
  }
}
