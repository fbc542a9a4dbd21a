package dev.ctxpack.pii;

import static dev.ctxpack.pii.Scanners.cleanEnd;
import static dev.ctxpack.pii.Scanners.cleanStart;
import static dev.ctxpack.pii.Scanners.digit;
import static dev.ctxpack.pii.Scanners.skipDigits;

import java.util.List;

/**
 * The scanners for Brazilian taxpayer numbers: CPF (000.000.000-00) and CNPJ (00.000.000/0000-00),
 * formatted or bare, with both check digits verified by {@link CheckDigits}. Called by {@link
 * Scanners#scan} for {@link PiiType#CPF} and {@link PiiType#CNPJ}.
 */
final class BrazilianIdScanner {
  private BrazilianIdScanner() {}

  /**
   * 000.000.000-00 (a single space also accepted at each separator: 000 000 000 00) or eleven bare
   * digits; both check digits valid, not all one digit.
   */
  static void cpf(String s, List<PiiMatch> out) {
    formatted(s, out, PiiType.CPF, new int[] {3, 3, 3, 2}, new char[] {'.', '.', '-'});
  }

  /**
   * 00.000.000/0000-00 or fourteen bare digits, and the alphanumeric form issued from July 2026
   * (12.ABC.345/01DE-35: the first twelve characters digits or capital letters, the two check
   * digits numeric, each character worth its ASCII code − 48); a single space also accepted at each
   * separator; both check digits valid, not all one character. Letters only in the punctuated form.
   */
  static void cnpj(String s, List<PiiMatch> out) {
    formatted(s, out, PiiType.CNPJ, new int[] {2, 3, 3, 4, 2}, new char[] {'.', '.', '/', '-'});
  }

  private static boolean upper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  /** Whether position {@code k} of the number may hold {@code c}: a digit, or for a CNPJ's first twelve a capital. */
  private static boolean allowed(PiiType type, int k, char c, boolean letters) {
    return digit(c) || (letters && type == PiiType.CNPJ && k < 12 && upper(c));
  }

  private static void formatted(String s, List<PiiMatch> out, PiiType type, int[] groups, char[] seps) {
    int total = 0;
    for (int g : groups) total += g;
    int n = s.length();
    StringBuilder d = new StringBuilder(total);
    int i = 0;
    while (i < n) {
      char c0 = s.charAt(i);
      if (!allowed(type, 0, c0, true) || !cleanStart(s, i)) {
        i++;
        continue;
      }
      int end = -1;
      // bare: digits only
      int run = skipDigits(s, i);
      d.setLength(0);
      if (run - i == total) {
        d.append(s, i, run);
        end = run;
      } else {
        // punctuated: each group of its length, each separator its own character or one space
        int j = i;
        int k = 0;
        boolean ok = true;
        for (int g = 0; g < groups.length && ok; g++) {
          if (g > 0) {
            if (j < n && (s.charAt(j) == seps[g - 1] || s.charAt(j) == ' ')) j++;
            else ok = false;
          }
          for (int m = 0; m < groups[g] && ok; m++, j++, k++) {
            if (j >= n || !allowed(type, k, s.charAt(j), true)) ok = false;
            else d.append(s.charAt(j));
          }
        }
        if (ok) end = j;
      }
      if (end > 0 && cleanEnd(s, end)
          && (type == PiiType.CPF ? CheckDigits.cpf(d) : CheckDigits.cnpj(d))) {
        out.add(new PiiMatch(type, i, end, d.toString()));
        i = end;
      } else {
        i = Math.max(i + 1, digit(c0) ? run : i + 1);
      }
    }
  }
}
