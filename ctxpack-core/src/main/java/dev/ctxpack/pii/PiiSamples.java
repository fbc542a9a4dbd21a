package dev.ctxpack.pii;

import java.util.List;
import java.util.Random;

/**
 * Generated numbers for measuring the recognisers (the tests and {@code ctxpack-bench}): valid
 * payment cards of several issuers and lengths, IBANs of several countries, CPF and CNPJ, each in a
 * written form people use, and the same numbers with one digit changed so the check fails. Pure
 * functions of the given {@link Random}.
 */
public final class PiiSamples {
  private PiiSamples() {}

  /** A generated value: its type and its text as written. */
  public record Sample(PiiType type, String text) {}

  /** One valid number of {@code type} (CARD, IBAN, CPF or CNPJ). */
  public static Sample valid(PiiType type, Random r) {
    return switch (type) {
      case CARD -> new Sample(type, card(r));
      case IBAN -> new Sample(type, iban(r));
      case CPF -> new Sample(type, cpf(r));
      case CNPJ -> new Sample(type, cnpj(r));
      default -> throw new IllegalArgumentException("no generator for " + type + ": use card, iban, cpf or cnpj");
    };
  }

  /** The types with generators. */
  public static final List<PiiType> GENERATED = List.of(PiiType.CARD, PiiType.IBAN, PiiType.CPF, PiiType.CNPJ);

  /** {@code s} with one digit changed so that its check fails (the layout is kept). */
  public static Sample oneDigitOff(Sample s, Random r) {
    String t = s.text();
    for (int attempt = 0; attempt < 1000; attempt++) {
      int pos = r.nextInt(t.length());
      char c = t.charAt(pos);
      if (c < '0' || c > '9' || (s.type() == PiiType.IBAN && pos < 2)) continue;
      char d = (char) ('0' + (c - '0' + 1 + r.nextInt(9)) % 10);
      String changed = t.substring(0, pos) + d + t.substring(pos + 1);
      if (!passes(s.type(), changed)) return new Sample(s.type(), changed);
    }
    throw new IllegalStateException("no one-digit change of " + t + " fails its check");
  }

  /** Whether the digits (and capitals) of {@code text} pass the check of {@code type}. */
  public static boolean passes(PiiType type, String text) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) b.append(c);
    }
    return switch (type) {
      case CARD -> b.length() >= 13 && b.length() <= 19 && PaymentScanner.issuer(b) && CheckDigits.luhn(b);
      case IBAN -> CheckDigits.iban(b);
      case CPF -> CheckDigits.cpf(b);
      case CNPJ -> CheckDigits.cnpj(b);
      default -> false;
    };
  }

  private static final String[][] ISSUERS = { // prefix, length, layout (b bare, 4 groups of four, a 4-6-5, d 4-6-4)
      {"4", "16", "4"}, {"4", "13", "b"}, {"4", "19", "4"}, {"51", "16", "4"}, {"55", "16", "4"}, {"2221", "16", "4"},
      {"2720", "16", "4"}, {"34", "15", "a"}, {"37", "15", "a"}, {"6011", "16", "4"}, {"65", "19", "b"},
      {"36", "14", "d"}, {"3530", "16", "4"}, {"62", "17", "b"}, {"6362", "16", "4"}, {"606282", "16", "4"}};

  static String card(Random r) {
    String[] is = ISSUERS[r.nextInt(ISSUERS.length)];
    int len = Integer.parseInt(is[1]);
    StringBuilder d = new StringBuilder(is[0]);
    while (d.length() < len - 1) d.append((char) ('0' + r.nextInt(10)));
    for (int c = 0; c <= 9; c++) {
      if (CheckDigits.luhn(d.toString() + c)) {
        d.append(c);
        break;
      }
    }
    String digits = d.toString();
    char sep = r.nextBoolean() ? ' ' : '-';
    return switch (is[2]) {
      case "a" -> r.nextInt(3) == 0 ? digits : digits.substring(0, 4) + sep + digits.substring(4, 10) + sep + digits.substring(10);
      case "d" -> digits.substring(0, 4) + sep + digits.substring(4, 10) + sep + digits.substring(10);
      case "4" -> r.nextInt(3) == 0 ? digits : grouped(digits, 4, sep);
      default -> digits;
    };
  }

  private static final String[][] IBAN_FORMS = { // country, BBAN as n (digit) and a (capital) counts
      {"DE", "18n"}, {"PT", "21n"}, {"ES", "20n"}, {"FR", "10n11a2n"}, {"GB", "4a14n"}, {"NL", "4a10n"},
      {"IT", "1a10n12n"}, {"BR", "23n1a1a"}, {"BE", "12n"}, {"CH", "17n"}, {"AT", "16n"}, {"NO", "11n"}};

  static String iban(Random r) {
    String[] f = IBAN_FORMS[r.nextInt(IBAN_FORMS.length)];
    StringBuilder bban = new StringBuilder();
    String spec = f[1];
    int num = 0;
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c >= '0' && c <= '9') {
        num = num * 10 + (c - '0');
        continue;
      }
      for (int k = 0; k < num; k++) bban.append(c == 'n' ? (char) ('0' + r.nextInt(10)) : (char) ('A' + r.nextInt(26)));
      num = 0;
    }
    String country = f[0];
    int rem = 0;
    String rearranged = bban + country + "00";
    for (int i = 0; i < rearranged.length(); i++) {
      char c = rearranged.charAt(i);
      rem = c <= '9' ? (rem * 10 + (c - '0')) % 97 : (rem * 100 + (c - 'A' + 10)) % 97;
    }
    int check = 98 - rem;
    String iban = country + (check < 10 ? "0" : "") + check + bban;
    return r.nextBoolean() ? iban : grouped(iban, 4, ' ');
  }

  static String cpf(Random r) {
    StringBuilder d = new StringBuilder();
    do {
      d.setLength(0);
      for (int i = 0; i < 9; i++) d.append((char) ('0' + r.nextInt(10)));
    } while (d.chars().distinct().count() == 1);
    d.append(CheckDigits.cpfDigit(d, 9));
    d.append(CheckDigits.cpfDigit(d, 10));
    String s = d.toString();
    return r.nextBoolean() ? s : s.substring(0, 3) + "." + s.substring(3, 6) + "." + s.substring(6, 9) + "-" + s.substring(9);
  }

  static String cnpj(Random r) {
    StringBuilder d = new StringBuilder();
    do {
      d.setLength(0);
      for (int i = 0; i < 8; i++) d.append((char) ('0' + r.nextInt(10)));
      d.append(r.nextInt(4) == 0 ? "000" + (1 + r.nextInt(9)) : String.format("%04d", r.nextInt(10000)));
    } while (d.chars().distinct().count() == 1);
    d.append(CheckDigits.cnpjDigit(d, 12));
    d.append(CheckDigits.cnpjDigit(d, 13));
    String s = d.toString();
    return r.nextBoolean() ? s
        : s.substring(0, 2) + "." + s.substring(2, 5) + "." + s.substring(5, 8) + "/" + s.substring(8, 12) + "-" + s.substring(12);
  }

  private static String grouped(String s, int size, char sep) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i += size) {
      if (i > 0) b.append(sep);
      b.append(s, i, Math.min(s.length(), i + size));
    }
    return b.toString();
  }

  /** Sentences in Portuguese and English with a {@code {}} where a value goes. */
  public static final List<String> CONTEXTS = List.of(
      "Para o reembolso, informe o número {} ao atendente e aguarde a confirmação.",
      "O cliente apresentou o documento {}, conforme registrado em 12/03/2021 às 14h.",
      "Dados de pagamento: {}. Valor total de R$ 1.234,56 em 3 parcelas.",
      "Segundo o contrato de 2019 (cláusula 4.2), a conta {} recebe os depósitos.",
      "Favor transferir para {} até o dia 15.",
      "Please charge {} before Friday, 3 March 2023.",
      "The customer's number ({}) was verified by the bank in 2020.",
      "According to the 2018 report, account {} received $4,500.00 in fees.",
      "Send the refund to {}; the reference is version 2.4.1 of the form.",
      "Record: {}, checked on 2024-01-15 at 10:30.");

  /** {@code value} embedded in a context sentence between filler sentences. */
  public static String embed(String value, Random r) {
    String ctx = CONTEXTS.get(r.nextInt(CONTEXTS.size()));
    return FILLER.get(r.nextInt(FILLER.size())) + " " + ctx.replace("{}", value) + " " + FILLER.get(r.nextInt(FILLER.size()));
  }

  private static final List<String> FILLER = List.of(
      "A reunião foi adiada para 2025.",
      "O rio tem cerca de 1.230 km de extensão.",
      "The study enrolled 1,024 patients across 12 sites.",
      "See section 3.1.4 and DOI 10.1016/j.cell.2020.01.001 for details.",
      "A taxa subiu 0,75 ponto em março de 2022.",
      "Prices start at $19.99 and ISBN 978-3-16-148410-0 is the second edition.");
}
