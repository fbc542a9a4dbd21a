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

  /**
   * The evidence is counted with the function words looked up in place: the same as copying each
   * word out and looking it up in the word sets, on random texts of function words of both
   * languages, words with and without the hinted endings, capitals (one that lower-cases to two
   * characters), digits and punctuation.
   */
  @Test
  void evidenceIsCountedAsWordByWordLookUps() {
    String[] parts = {"the", "The", "of", "and", "which", "doesn", "de", "que", "não", "é", "à", "você", "voce", "me", "do", "as",
        "nação", "nações", "rapidamente", "fazendo", "médico", "fabrica", "falou", "bebeu", "partiu", "right", "played", "red",
        "running", "nation", "quickly", "thing", "day", "ligt", "ndo", "eu", "mentes", "shed", "whim", "what", "th", "wh", "ed", "ly", "ção", "İstanbul", "ÃO", "x", "2024", "q&a",
        " ", " ", ", ", ". ", "\n", "-", "'"};
    java.util.Random random = new java.util.Random(13);
    int[] seen = new int[3];
    for (int t = 0; t < 20_000; t++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(40); k > 0; k--) sb.append(parts[random.nextInt(parts.length)]);
      String text = sb.toString();
      assertThat(LanguageDetector.evidence(text)).as(text).containsExactly(reference(text));
      seen[detector.detect(text).ordinal() % 3]++;
    }
    for (int n : seen) assertThat(n).as("texts of each answer").isGreaterThan(200);
  }

  /** The evidence as first written: each word copied out and looked up in a set. */
  private static double[] reference(String text) {
    java.util.Set<String> en = java.util.Set.of("the", "of", "and", "to", "in", "is", "that", "for", "it", "with", "as", "was",
        "on", "are", "be", "by", "this", "from", "at", "or", "an", "which", "were", "have", "has", "not", "but", "they", "their",
        "we", "these", "been", "than", "its", "can", "there", "what", "when", "who", "how", "does", "did", "would", "should",
        "could", "between", "into", "after", "also", "more", "other", "such", "only", "about", "many", "most", "some", "while",
        "where", "our", "both", "i", "you", "your", "my", "me", "he", "she", "his", "her", "him", "them", "us", "do", "don",
        "doesn", "didn", "isn", "aren", "wasn", "won", "cannot", "will", "why", "if", "so", "any", "all", "here", "then", "just",
        "had", "being", "because", "very", "out", "up", "those", "during", "still", "even", "again", "each", "every", "without",
        "before", "over", "through", "am", "haven", "anyone", "anything", "something", "please", "thanks", "last", "next", "let");
    java.util.Set<String> pt = java.util.Set.of("de", "que", "e", "o", "da", "do", "em", "um", "uma", "para", "é", "com", "não",
        "os", "no", "na", "se", "por", "mais", "as", "dos", "das", "como", "mas", "foi", "ao", "ele", "ela", "à", "seu", "sua",
        "ou", "ser", "quando", "muito", "nos", "já", "está", "também", "só", "pelo", "pela", "até", "isso", "entre", "depois",
        "sem", "mesmo", "aos", "seus", "quem", "nas", "esse", "eles", "essa", "num", "nem", "suas", "são", "qual", "onde",
        "foram", "pelos", "tem", "têm", "estão", "sobre", "porque", "há", "cada", "ainda", "anos", "desde", "este", "me", "eu",
        "você", "vocês", "nós", "meu", "minha", "meus", "minhas", "lhe", "dele", "dela", "esta", "isto", "aqui", "quais",
        "quanto", "quanta", "quantos", "quantas", "pode", "posso", "preciso", "quero", "quer", "fazer", "faço", "tenho", "estou",
        "vou", "vai", "era", "agora", "hoje", "ontem", "amanhã", "sempre", "nunca", "bem", "tudo", "nada", "todos", "todas",
        "outro", "outra", "às", "numa", "pelas", "deste", "desta", "neste", "nesta", "disso", "obrigado", "obrigada", "então",
        "pois", "assim", "qualquer", "alguém", "algum", "alguma", "deve", "vez", "coisa", "voce", "voces", "nao", "tambem",
        "estao", "sao", "ate", "ja", "entao", "faco", "amanha", "alguem", "ha");
    String sample = text.length() > LanguageDetector.SAMPLE_CHARS ? text.substring(0, LanguageDetector.SAMPLE_CHARS) : text;
    double e = 0;
    double p = 0;
    int words = 0;
    int start = -1;
    String lower = sample.toLowerCase(java.util.Locale.ROOT);
    for (int i = 0; i <= lower.length(); i++) {
      boolean letter = i < lower.length() && Character.isLetter(lower.charAt(i));
      if (letter && start < 0) start = i;
      if (!letter && start >= 0) {
        String w = lower.substring(start, i);
        words++;
        boolean enWord = en.contains(w);
        boolean ptWord = pt.contains(w);
        if (enWord) e += 1;
        if (ptWord) p += 1;
        if (!enWord && !ptWord) {
          double s = 0;
          for (int j = 0; j < w.length(); j++) {
            char c = w.charAt(j);
            if (c == 'ã' || c == 'õ' || c == 'ç' || c == 'ê' || c == 'â' || c == 'ô') s += 0.5;
            else if (c == 'á' || c == 'é' || c == 'í' || c == 'ó' || c == 'ú' || c == 'à') s += 0.25;
          }
          if (w.endsWith("ção") || w.endsWith("ções") || w.endsWith("mente") || w.endsWith("ões")) s += 0.5;
          else if (w.length() >= 5 && (w.endsWith("ndo") || w.endsWith("ico") || w.endsWith("ica"))) s += 0.5;
          else if (w.length() >= 5 && (w.endsWith("ou") || w.endsWith("eu") || w.endsWith("iu"))) s += 0.5;
          p += s;
          double h = 0;
          if (w.endsWith("ght")) h += 0.5;
          else if (w.length() >= 5 && w.endsWith("ed")) h += 0.5;
          else if (w.endsWith("ing") || w.endsWith("tion") || w.endsWith("ly")) h += 0.3;
          if (w.startsWith("th") || w.startsWith("wh")) h += 0.3;
          e += h;
        }
        start = -1;
      }
    }
    return new double[] {e, p, words};
  }
}
