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

  /** 000.000.000-00 or eleven bare digits; both check digits valid, not all one digit. */
  static void cpf(String s, List<PiiMatch> out) {
    formatted(s, out, PiiType.CPF, new int[] {3, 3, 3, 2}, new char[] {'.', '.', '-'});
  }

  /** 00.000.000/0000-00 or fourteen bare digits; both check digits valid, not all one digit. */
  static void cnpj(String s, List<PiiMatch> out) {
    formatted(s, out, PiiType.CNPJ, new int[] {2, 3, 3, 4, 2}, new char[] {'.', '.', '/', '-'});
  }

  private static void formatted(String s, List<PiiMatch> out, PiiType type, int[] groups, char[] seps) {
    int total = 0;
    for (int g : groups) total += g;
    int n = s.length();
    StringBuilder d = new StringBuilder(total);
    int i = 0;
    while (i < n) {
      if (!digit(s.charAt(i))) {
        i++;
        continue;
      }
      int run = skipDigits(s, i);
      if (!cleanStart(s, i)) {
        i = run;
        continue;
      }
      int end = -1;
      d.setLength(0);
      if (run - i == total) {
        d.append(s, i, run);
        end = run;
      } else if (run - i == groups[0]) {
        int j = i;
        boolean ok = true;
        for (int g = 0; g < groups.length && ok; g++) {
          if (g > 0) {
            if (j >= n || s.charAt(j) != seps[g - 1]) ok = false;
            else j++;
          }
          if (!ok) break;
          int e = skipDigits(s, j);
          if (e - j != groups[g]) ok = false;
          else d.append(s, j, e);
          j = e;
        }
        if (ok) end = j;
      }
      if (end > 0 && cleanEnd(s, end)
          && (type == PiiType.CPF ? CheckDigits.cpf(d) : CheckDigits.cnpj(d))) {
        out.add(new PiiMatch(type, i, end, d.toString()));
        i = end;
      } else {
        i = run;
      }
    }
  }
}
