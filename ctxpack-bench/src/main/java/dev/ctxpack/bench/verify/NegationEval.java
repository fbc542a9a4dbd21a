package dev.ctxpack.bench.verify;

import dev.ctxpack.bench.compress.CompressData.Article;
import dev.ctxpack.bench.verify.QaUnits.Unit;
import dev.ctxpack.model.Language;
import dev.ctxpack.verify.Answer;
import dev.ctxpack.verify.EvidenceVerifier;
import dev.ctxpack.verify.Verdict;
import dev.ctxpack.verify.Verification;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Negation by construction family ({@code eval negation}): each citation unit's answer sentence
 * ({@link QaUnits}, SQuAD 2.0 dev en and FaQuAD pt, cited to its gold source) rewritten by several
 * constructions per family, each construction assigned to FIT or REPORT so that a rule written for
 * the FIT wordings is measured on wordings it never saw. Families: sentential (a falsity frame over
 * the sentence), prefix (a word replaced by its negated form found in the data set's own vocabulary),
 * negative verb ("fails to", "is unable to", "ceased to"; "deixou de", "cessou de", "parou de"), adverb ("never", "no longer"; "nunca", "jamais", "já não"), determiner ("No X",
 * "None of the X"; "Nenhum X", "Nem o X"), lacking (the verb of having replaced: "lacks", "is devoid of",
 * "is missing"; "carece de", "é carente de"), and double negation (a falsity frame over the sentence
 * negated with the particle: it states the sentence, so it must be supported, like the sentence
 * itself). A negated case is caught when the verdict is not {@code supported}.
 */
@Command(name = "negation", mixinStandardHelpOptions = true,
    description = "Evaluates negation by construction family (FIT and REPORT wordings) on SQuAD/FaQuAD citation units.")
public final class NegationEval implements Callable<Integer> {
  @CommandLine.Mixin QaUnitSets sets = new QaUnitSets();

  @Option(names = "--limit", defaultValue = "0", description = "Units per language (0 = all).")
  int limit;

  public static int run(String[] args) {
    return new CommandLine(new NegationEval()).execute(args);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** One wording: its family, whether it is a FIT wording, whether its result denies the sentence, and how it is built. */
  record Construction(String family, String name, boolean fit, boolean denies, Function<String, String> build) {}

  private static final Set<String> LOWER_OPENERS = new java.util.HashSet<>(List.of("the", "a", "an", "in", "on", "at", "this", "these", "those",
      "it", "he", "she", "they", "its", "his", "her", "their", "there", "after", "during", "by", "for", "from", "as",
      "o", "os", "as", "um", "uma", "em", "no", "na", "nos", "nas", "ele", "ela", "eles", "elas", "este", "esta", "esse",
      "essa", "seu", "sua", "para", "com", "de", "do", "da", "desde", "após", "durante"));
  private static final Pattern FIRST_WORD = Pattern.compile("^(\\p{L}+)");
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  /** The sentence as a complement clause: its first word lower-cased when it is a function word. */
  static String complement(String s) {
    Matcher m = FIRST_WORD.matcher(s);
    if (m.find() && LOWER_OPENERS.contains(m.group(1).toLowerCase(Locale.ROOT))) {
      return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
    return s;
  }

  /** {@code s} with {@code word} inserted after (en) or before (pt) its first auxiliary or verb; null when none. */
  static String insert(String s, String word, Language language) {
    Set<String> targets = Set.copyOf(language == Language.PT ? Variants.PT_VERBS : Variants.EN_AUXILIARIES);
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      if (!targets.contains(m.group())) continue;
      return language == Language.PT ? s.substring(0, m.start()) + word + " " + s.substring(m.start())
          : s.substring(0, m.end()) + " " + word + s.substring(m.end());
    }
    return null;
  }

  static String determiner(String s, String en, String ptMasc, String ptFem) {
    if (ptMasc == null) return s.startsWith("The ") ? en + s.substring(4) : null;
    if (s.startsWith("O ")) return ptMasc + s.substring(2);
    if (s.startsWith("A ")) return ptFem + s.substring(2);
    return null;
  }

  private static final java.util.Map<String, String> EN_FAILS = java.util.Map.ofEntries(
      java.util.Map.entry("is", "fails to be"), java.util.Map.entry("are", "fail to be"),
      java.util.Map.entry("was", "failed to be"), java.util.Map.entry("were", "failed to be"),
      java.util.Map.entry("can", "fails to"), java.util.Map.entry("could", "failed to"),
      java.util.Map.entry("did", "failed to"), java.util.Map.entry("does", "fails to"), java.util.Map.entry("do", "fail to"));
  private static final java.util.Map<String, String> EN_UNABLE = java.util.Map.ofEntries(
      java.util.Map.entry("is", "is unable to be"), java.util.Map.entry("are", "are unable to be"),
      java.util.Map.entry("was", "was unable to be"), java.util.Map.entry("were", "were unable to be"),
      java.util.Map.entry("can", "is unable to"), java.util.Map.entry("could", "was unable to"));
  private static final java.util.Map<String, String> EN_CEASED = java.util.Map.ofEntries(
      java.util.Map.entry("is", "ceases to be"), java.util.Map.entry("are", "cease to be"),
      java.util.Map.entry("was", "ceased to be"), java.util.Map.entry("were", "ceased to be"));
  /** Portuguese verb forms of {@link Variants#PT_VERBS} as infinitives, singular or plural. */
  private static final java.util.Map<String, String> PT_INFINITIVE = java.util.Map.ofEntries(
      java.util.Map.entry("é", "s:ser"), java.util.Map.entry("foi", "s:ser"), java.util.Map.entry("era", "s:ser"),
      java.util.Map.entry("são", "p:ser"), java.util.Map.entry("eram", "p:ser"), java.util.Map.entry("foram", "p:ser"),
      java.util.Map.entry("tem", "s:ter"), java.util.Map.entry("teve", "s:ter"), java.util.Map.entry("tinha", "s:ter"),
      java.util.Map.entry("têm", "p:ter"), java.util.Map.entry("está", "s:estar"), java.util.Map.entry("estava", "s:estar"),
      java.util.Map.entry("estão", "p:estar"), java.util.Map.entry("pode", "s:poder"), java.util.Map.entry("podem", "p:poder"),
      java.util.Map.entry("deve", "s:dever"), java.util.Map.entry("devem", "p:dever"), java.util.Map.entry("possui", "s:possuir"),
      java.util.Map.entry("possuem", "p:possuir"), java.util.Map.entry("fica", "s:ficar"), java.util.Map.entry("ficou", "s:ficar"),
      java.util.Map.entry("há", "s:haver"), java.util.Map.entry("havia", "s:haver"));

  private static final java.util.Map<String, String> EN_LACKS = java.util.Map.of("has", "lacks", "have", "lack", "had", "lacked");
  private static final java.util.Map<String, String> EN_DEVOID = java.util.Map.of("has", "is devoid of", "have", "are devoid of",
      "had", "was devoid of");
  private static final java.util.Map<String, String> EN_MISSING = java.util.Map.of("has", "is missing", "have", "are missing",
      "had", "was missing");
  private static final java.util.Map<String, String> PT_CARECE = java.util.Map.of("tem", "carece de", "têm", "carecem de",
      "tinha", "carecia de", "possui", "carece de", "possuem", "carecem de", "teve", "careceu de");
  private static final java.util.Map<String, String> PT_CARENTE = java.util.Map.of("tem", "é carente de", "têm", "são carentes de",
      "tinha", "era carente de", "possui", "é carente de", "possuem", "são carentes de", "teve", "foi carente de");

  /**
   * {@code s} with its first verb of having ("has", "tem", "possui"...; a key of {@code forms}) that
   * has an object replaced by {@code forms}' predicate of lacking ("lacks", "carece de"); null when
   * it has none, or the verb is an auxiliary ("has been", "has shown", "tem sido").
   */
  static String having(String s, java.util.Map<String, String> forms) {
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      String f = forms.get(m.group());
      if (f == null) continue;
      Matcher next = WORD.matcher(s);
      if (!next.find(m.end())) return null;
      String n = next.group().toLowerCase(Locale.ROOT);
      if (n.equals("been") || n.equals("sido") || n.equals("que") || n.equals("to") || n.equals("de") || n.endsWith("ed")
          || n.endsWith("en") || n.endsWith("ado") || n.endsWith("ido") || n.equals("not") || n.equals("no")
          || n.endsWith("ly") || n.equals("also") || n.equals("already") || n.equals("kept") || n.equals("made")
          || s.substring(0, m.start()).matches("(?s).*\\bto\\s+$")) return null; // an auxiliary, or "to have"
      return s.substring(0, m.start()) + f + s.substring(m.end());
    }
    return null;
  }

  /** {@code s} with its first auxiliary (en) replaced by {@code forms}' phrase; null when it has none mapped. */
  static String replaceAux(String s, java.util.Map<String, String> forms) {
    Set<String> targets = Set.copyOf(Variants.EN_AUXILIARIES);
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      if (!targets.contains(m.group())) continue;
      String f = forms.get(m.group());
      return f == null ? null : s.substring(0, m.start()) + f + s.substring(m.end());
    }
    return null;
  }

  /** {@code s} with its first verb (pt) as "{singular|plural} de INFINITIVE"; null when it has none mapped. */
  static String ptVerb(String s, String singular, String plural) {
    Set<String> targets = Set.copyOf(Variants.PT_VERBS);
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      if (!targets.contains(m.group())) continue;
      String f = PT_INFINITIVE.get(m.group());
      if (f == null) return null;
      String lead = f.startsWith("s:") ? singular : plural;
      return s.substring(0, m.start()) + lead + " de " + f.substring(2) + s.substring(m.end());
    }
    return null;
  }

  /**
   * {@code s} with its first adjective-like word of five letters or more ({@link #ADJECTIVE}) whose
   * negated form {@code prefix + word}
   * occurs in {@code vocabulary} (the data set's own words: "known" → "unknown", "possível" →
   * "impossível") replaced by that form; null when none.
   */
  static String prefixed(String s, List<String> prefixes, Set<String> vocabulary) {
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      String w = m.group();
      if (w.length() < 5 || !w.chars().allMatch(Character::isLowerCase) || !ADJECTIVE.matcher(w).find()) continue;
      for (String p : prefixes) {
        if (!w.startsWith(p) && vocabulary.contains(p + w)) return s.substring(0, m.start()) + p + w + s.substring(m.end());
      }
    }
    return null;
  }

  /**
   * Endings of adjectives and participles, the words a negating prefix turns into their opposite
   * ("possible", "complete", "known", "formal"; "possível", "correto", "adequado"); other words take
   * the same letters without negating ("solve" / "dissolve", "famous" / "infamous", "vest" / "invest").
   */
  private static final Pattern ADJECTIVE = Pattern.compile(
      "(?:able|ible|al|ive|ent|ant|ete|own|ed|ar|ic|ary|ular|vel|ente|ante|ivo|iva|ado|ada|ido|ida|eto|eta|ico|ica)$");

  /** The lower-case words of every paragraph of {@code articles}. */
  static Set<String> vocabulary(List<Article> articles) {
    Set<String> out = new java.util.HashSet<>();
    for (Article a : articles) {
      for (var p : a.paragraphs()) {
        for (Matcher m = WORD.matcher(p.text()); m.find(); ) out.add(m.group().toLowerCase(Locale.ROOT));
      }
    }
    return out;
  }

  static List<Construction> constructions(Language language) {
    return constructions(language, Set.of());
  }

  static List<Construction> constructions(Language language, Set<String> vocabulary) {
    List<Construction> c = new ArrayList<>();
    if (language == Language.EN) {
      c.add(new Construction("sentential", "It is not true that …", true, true, s -> "It is not true that " + complement(s)));
      c.add(new Construction("sentential", "It is false that …", false, true, s -> "It is false that " + complement(s)));
      c.add(new Construction("sentential", "It is not the case that …", false, true, s -> "It is not the case that " + complement(s)));
      c.add(new Construction("adverb", "never", true, true, s -> insert(s, "never", language)));
      c.add(new Construction("adverb", "no longer", false, true, s -> insert(s, "no longer", language)));
      c.add(new Construction("determiner", "No X …", true, true, s -> determiner(s, "No ", null, null)));
      c.add(new Construction("determiner", "None of the X …", false, true, s -> determiner(s, "None of the ", null, null)));
      c.add(new Construction("prefix", "un-", true, true, s -> prefixed(s, List.of("un"), vocabulary)));
      c.add(new Construction("prefix", "in-, im-, ir-, dis-, non-", false, true,
          s -> prefixed(s, List.of("in", "im", "ir", "dis", "non"), vocabulary)));
      c.add(new Construction("negative verb", "fails to", true, true, s -> replaceAux(s, EN_FAILS)));
      c.add(new Construction("negative verb", "is unable to", false, true, s -> replaceAux(s, EN_UNABLE)));
      c.add(new Construction("negative verb", "ceased to", false, true, s -> replaceAux(s, EN_CEASED)));
      c.add(new Construction("lacking", "lacks", true, true, s -> having(s, EN_LACKS)));
      c.add(new Construction("lacking", "is devoid of", false, true, s -> having(s, EN_DEVOID)));
      c.add(new Construction("lacking", "is missing", false, true, s -> having(s, EN_MISSING)));
      c.add(new Construction("double", "It is not true that … not …", true, false, s -> {
        String n = Variants.negate(s, language);
        return n == null ? null : "It is not true that " + complement(n);
      }));
      c.add(new Construction("double", "It is false that … not …", false, false, s -> {
        String n = Variants.negate(s, language);
        return n == null ? null : "It is false that " + complement(n);
      }));
    } else {
      c.add(new Construction("sentential", "Não é verdade que …", true, true, s -> "Não é verdade que " + complement(s)));
      c.add(new Construction("sentential", "É falso que …", false, true, s -> "É falso que " + complement(s)));
      c.add(new Construction("sentential", "É mentira que …", false, true, s -> "É mentira que " + complement(s)));
      c.add(new Construction("adverb", "nunca", true, true, s -> insert(s, "nunca", language)));
      c.add(new Construction("adverb", "jamais", false, true, s -> insert(s, "jamais", language)));
      c.add(new Construction("adverb", "já não", false, true, s -> insert(s, "já não", language)));
      c.add(new Construction("determiner", "Nenhum X …", true, true, s -> determiner(s, null, "Nenhum ", "Nenhuma ")));
      c.add(new Construction("determiner", "Nem o X …", false, true, s -> determiner(s, null, "Nem o ", "Nem a ")));
      c.add(new Construction("prefix", "in-", true, true, s -> prefixed(s, List.of("in"), vocabulary)));
      c.add(new Construction("prefix", "des-, im-, ir-", false, true, s -> prefixed(s, List.of("des", "im", "ir"), vocabulary)));
      c.add(new Construction("negative verb", "deixou de", true, true, s -> ptVerb(s, "deixou", "deixaram")));
      c.add(new Construction("negative verb", "cessou de", false, true, s -> ptVerb(s, "cessou", "cessaram")));
      c.add(new Construction("negative verb", "parou de", false, true, s -> ptVerb(s, "parou", "pararam")));
      c.add(new Construction("lacking", "carece de", true, true, s -> having(s, PT_CARECE)));
      c.add(new Construction("lacking", "é carente de", false, true, s -> having(s, PT_CARENTE)));
      c.add(new Construction("double", "Não é verdade que … não …", true, false, s -> {
        String n = Variants.negate(s, language);
        return n == null ? null : "Não é verdade que " + complement(n);
      }));
      c.add(new Construction("double", "É falso que … não …", false, false, s -> {
        String n = Variants.negate(s, language);
        return n == null ? null : "É falso que " + complement(n);
      }));
    }
    c.add(new Construction("none", "the sentence itself", true, false, s -> s));
    return c;
  }

  @Override
  public Integer call() throws IOException {
    StringBuilder md = new StringBuilder("Command: `java -jar ctxpack-bench/target/ctxpack-bench.jar negation --data "
        + sets.dataDir + " --half " + sets.halfName + " --limit " + limit + "`\n\n");
    EvidenceVerifier verifier = EvidenceVerifier.lexical();
    for (QaUnitSets.Loaded loaded : sets.load(limit)) {
      Language language = loaded.language();
      VerifyData.QaSet qa = loaded.set();
      List<Unit> units = loaded.units();
      Map<Construction, int[]> tally = new LinkedHashMap<>(); // cases, right, contradicted
      for (Construction c : constructions(language, vocabulary(qa.articles()))) tally.put(c, new int[3]);
      List<String> misses = new ArrayList<>();
      for (Unit u : units) {
        String sentence = u.sentence().strip();
        // a sentence that negates already has no clean positive to negate
        if (Variants.negated(sentence, language)) continue;
        for (Construction c : tally.keySet()) {
          String built1 = c.build().apply(sentence);
          if (built1 == null) continue;
          Verification v;
          try {
            v = verifier.verify(null, u.sources(), Answer.parse(Variants.cite(built1, u.goldLabel())));
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
          if (v.claims().size() != 1) continue;
          Verdict verdict = v.claims().get(0).verdict();
          int[] t = tally.get(c);
          t[0]++;
          boolean right = c.denies() ? verdict != Verdict.SUPPORTED : verdict == Verdict.SUPPORTED;
          if (right) t[1]++;
          if (verdict == Verdict.CONTRADICTED) t[2]++;
          if (!right && !c.fit() && misses.size() < 10) {
            misses.add(c.name() + " → " + verdict.wireName() + ": " + built1);
          }
        }
      }
      md.append("### ").append(language == Language.PT ? "FaQuAD (pt)" : "SQuAD 2.0 dev (en)").append(", ")
          .append(sets.halfName).append(" half of the articles\n\n")
          .append("| family | construction | wordings of | cases | right | contradicted |\n|---|---|---|---:|---:|---:|\n");
      for (var e : tally.entrySet()) {
        Construction c = e.getKey();
        int[] t = e.getValue();
        md.append("| ").append(c.family()).append(" | ").append(c.name()).append(" | ").append(c.fit() ? "FIT" : "REPORT")
            .append(" | ").append(t[0]).append(" | ").append(pct(t[1], t[0]))
            .append(c.denies() ? " caught" : " supported").append(" | ").append(pct(t[2], t[0])).append(" |\n");
      }
      md.append("\nMisses on REPORT wordings (first 10):").append(misses.isEmpty() ? " none" : "").append("\n");
      for (String m : misses) md.append("- ").append(m).append("\n");
      md.append("\n");
    }
    System.out.print(md);
    sets.write(md.toString());
    return 0;
  }

  private static String pct(int k, int n) {
    return n == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100.0 * k / n);
  }
}
