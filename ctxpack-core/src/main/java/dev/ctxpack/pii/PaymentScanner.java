package dev.ctxpack.pii;

import static dev.ctxpack.pii.Scanners.cleanEnd;
import static dev.ctxpack.pii.Scanners.cleanStart;
import static dev.ctxpack.pii.Scanners.digit;
import static dev.ctxpack.pii.Scanners.skipDigits;

import java.util.List;

/**
 * The scanners for payment identifiers: IBANs (country length, mod 97) and payment cards (layout,
 * issuer prefix and length, Luhn), with the check arithmetic in {@link CheckDigits}. Called by
 * {@link Scanners#scan} for {@link PiiType#IBAN} and {@link PiiType#CARD}; a card is never cut out
 * of a longer number or the tail of an IBAN.
 */
final class PaymentScanner {
  private PaymentScanner() {}

  private static boolean upper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean letter(char c) {
    return upper(c) || (c >= 'a' && c <= 'z');
  }

  // ---- IBAN ----

  /**
   * Country code, two check digits, the country's BBAN length of letters and digits, single spaces
   * allowed; mod 97 = 1. Letters of either case (an IBAN copied in lower case is still one), compared
   * and reported in capitals.
   */
  static void iban(String s, List<PiiMatch> out) {
    int n = s.length();
    StringBuilder b = new StringBuilder(34);
    for (int i = 0; i + 4 <= n; i++) {
      // The cheap tests first: two letters then two digits (most words fail here), then the country.
      if (!letter(s.charAt(i)) || !letter(s.charAt(i + 1)) || !digit(s.charAt(i + 2)) || !digit(s.charAt(i + 3))
          || !cleanStart(s, i)) {
        continue;
      }
      int len = CheckDigits.ibanLength(s.substring(i, i + 2).toUpperCase(java.util.Locale.ROOT));
      if (len == 0) continue;
      b.setLength(0);
      b.append(Character.toUpperCase(s.charAt(i))).append(Character.toUpperCase(s.charAt(i + 1))).append(s, i + 2, i + 4);
      int j = i + 4;
      while (b.length() < len && j < n) {
        char c = s.charAt(j);
        if (c == ' ' && j + 1 < n && j > i + 3 && s.charAt(j - 1) != ' ') {
          j++;
          continue;
        }
        if (!(digit(c) || letter(c))) break;
        b.append(Character.toUpperCase(c));
        j++;
      }
      if (b.length() != len || !cleanEnd(s, j) || !CheckDigits.iban(b)) continue;
      out.add(new PiiMatch(PiiType.IBAN, i, j, b.toString()));
      i = j - 1;
    }
  }

  // ---- payment cards ----

  /**
   * 13 to 19 digits, bare or grouped by single spaces or dashes (4-4-4-4..., 4-6-5, 4-6-4), a known
   * issuer prefix and length, Luhn-valid. A run of more than 19 digits is skipped whole.
   */
  static void card(String s, List<PiiMatch> out) {
    int n = s.length();
    int[] lens = new int[20];
    StringBuilder d = new StringBuilder(19);
    int i = 0;
    while (i < n) {
      if (!digit(s.charAt(i))) {
        i++;
        continue;
      }
      if (!cleanStart(s, i) || s.charAt(i - (i > 0 ? 1 : 0)) == '+' || afterNumberToken(s, i)) {
        i = skipDigits(s, i);
        continue;
      }
      int groups = 0;
      char sep = 0;
      int j = i;
      boolean tooLong = false;
      d.setLength(0);
      while (true) {
        int e = skipDigits(s, j);
        if (d.length() + (e - j) > 19 || groups == lens.length) {
          tooLong = true;
          j = e;
          break;
        }
        d.append(s, j, e);
        lens[groups++] = e - j;
        j = e;
        if (j + 1 < n && (s.charAt(j) == ' ' || s.charAt(j) == '-') && (sep == 0 || sep == s.charAt(j))
            && digit(s.charAt(j + 1))) {
          sep = s.charAt(j);
          j++;
        } else {
          break;
        }
      }
      if (tooLong) { // skip the rest of the run: no card is cut out of a longer number
        while (j < n && (digit(s.charAt(j)) || ((s.charAt(j) == ' ' || s.charAt(j) == '-') && j + 1 < n && digit(s.charAt(j + 1))))) j++;
        i = j;
        continue;
      }
      if (cleanEnd(s, j) && cardLayout(lens, groups, d.length()) && issuer(d) && CheckDigits.luhn(d)) {
        out.add(new PiiMatch(PiiType.CARD, i, j, d.toString()));
      }
      i = j;
    }
  }

  /**
   * Whether the digits at {@code i} continue a longer code: one of the two words right before it
   * (each one space or dash away) holds a digit, the words between being capitals only (the tail
   * of an IBAN: {@code AT19 4509 ...}, {@code GB47 HJAW 6361 ...}). Then they are no card.
   */
  private static boolean afterNumberToken(String s, int i) {
    int k = i - 1;
    for (int word = 0; word < 2; word++) {
      if (k < 1 || (s.charAt(k) != ' ' && s.charAt(k) != '-')) return false;
      k--;
      int start = k;
      while (k >= 0 && start - k < 40) {
        char c = s.charAt(k);
        if (digit(c)) return true;
        if (!upper(c)) break;
        k--;
      }
      if (k == start || (k >= 0 && s.charAt(k) != ' ' && s.charAt(k) != '-')) return false;
    }
    return false;
  }

  private static boolean cardLayout(int[] lens, int groups, int digits) {
    if (digits < 13 || digits > 19) return false;
    // Fourteen bare digits are a CNPJ's shape; a 14-digit card is written 4-6-4.
    if (groups == 1) return digits != 14;
    if (groups == 3 && lens[0] == 4 && lens[1] == 6 && (lens[2] == 5 || lens[2] == 4)) return true;
    for (int g = 0; g < groups - 1; g++) if (lens[g] != 4) return false;
    return groups >= 4 && lens[groups - 1] >= 1 && lens[groups - 1] <= 4;
  }

  /** Known issuer prefixes and their lengths (Visa, Mastercard, Amex, Discover, Diners, JCB, UnionPay, Maestro, Elo, Hipercard). */
  static boolean issuer(CharSequence d) {
    int len = d.length();
    int p2 = (d.charAt(0) - '0') * 10 + (d.charAt(1) - '0');
    int p4 = p2 * 100 + (d.charAt(2) - '0') * 10 + (d.charAt(3) - '0');
    int p3 = p4 / 10;
    switch (d.charAt(0)) {
      case '4':
        return len == 13 || len == 16 || len == 19;
      case '2':
        return p4 >= 2221 && p4 <= 2720 && len == 16;
      case '5':
        if (p2 >= 51 && p2 <= 55) return len == 16;
        return (p2 == 50 || (p2 >= 56 && p2 <= 58)) && len >= 13;
      case '3':
        if (p2 == 34 || p2 == 37) return len == 15;
        if ((p3 >= 300 && p3 <= 305) || p2 == 36 || p2 == 38 || p2 == 39) return len >= 14;
        if (p4 >= 3528 && p4 <= 3589) return len >= 16;
        return false;
      case '6':
        if (p2 == 63 || p2 == 67) return len >= 13;
        return p2 == 60 || p2 == 62 || p2 == 64 || p2 == 65 ? len >= 16 : false;
      default:
        return false;
    }
  }
}
