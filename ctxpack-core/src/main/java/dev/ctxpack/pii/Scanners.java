package dev.ctxpack.pii;

import java.util.List;

/**
 * The recognisers: one hand-written scanner per type, each reading every character a bounded number
 * of times (no regular expressions, no backtracking). A scanner appends what it finds to {@code out}
 * in text order; overlaps between types are settled by {@link PiiRedactor}.
 *
 * <p>This class picks the scanner for a type and holds the boundaries they share (what may stand
 * right before and after a match); the scanners themselves live by kind: {@link AddressScanner}
 * (e-mail, IPv4, IPv6), {@link PaymentScanner} (payment cards, IBAN), {@link BrazilianIdScanner}
 * (CPF, CNPJ) and {@link PhoneScanner}.
 */
final class Scanners {
  private Scanners() {}

  static void scan(PiiType type, String s, List<PiiMatch> out) {
    switch (type) {
      case EMAIL -> AddressScanner.email(s, out);
      case IBAN -> PaymentScanner.iban(s, out);
      case CNPJ -> BrazilianIdScanner.cnpj(s, out);
      case CPF -> BrazilianIdScanner.cpf(s, out);
      case CARD -> PaymentScanner.card(s, out);
      case IP -> {
        AddressScanner.ipv4(s, out);
        AddressScanner.ipv6(s, out);
      }
      case PHONE -> PhoneScanner.phone(s, out);
    }
  }

  // ---- shared boundaries ----

  static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean numberJoiner(char c) {
    return c == '.' || c == ',' || c == '-' || c == '/';
  }

  /** Nothing word-like before {@code i}: no letter or digit, no digit joined by {@code . , - /}. */
  static boolean cleanStart(String s, int i) {
    if (i == 0) return true;
    char p = s.charAt(i - 1);
    if (Character.isLetterOrDigit(p) || p == '_') return false;
    return !(numberJoiner(p) && i >= 2 && digit(s.charAt(i - 2)));
  }

  /** Nothing word-like from {@code e}: no letter or digit, no {@code . , - /} followed by a digit. */
  static boolean cleanEnd(String s, int e) {
    if (e >= s.length()) return true;
    char c = s.charAt(e);
    if (Character.isLetterOrDigit(c) || c == '_') return false;
    return !(numberJoiner(c) && e + 1 < s.length() && digit(s.charAt(e + 1)));
  }

  static int skipDigits(String s, int i) {
    while (i < s.length() && digit(s.charAt(i))) i++;
    return i;
  }
}
