package dev.ctxpack.pii;

import static dev.ctxpack.pii.Scanners.cleanEnd;
import static dev.ctxpack.pii.Scanners.cleanStart;
import static dev.ctxpack.pii.Scanners.digit;
import static dev.ctxpack.pii.Scanners.skipDigits;

import java.util.List;

/**
 * The phone-number scanner: international numbers and the conservative national forms of Brazil,
 * the US and Portuguese mobiles, never after a currency sign. Called by {@link Scanners#scan} for
 * {@link PiiType#PHONE}; a number that fits no form is retried from its second group, so the scan
 * stays linear.
 */
final class PhoneScanner {
  private PhoneScanner() {}

  private static final int MAX_PHONE_DIGITS = 15;

  /**
   * Conservative forms only: international ({@code +} and 8-15 digits); Brazilian {@code (11)
   * 98765-4321}, {@code (11) 3456-7890}, {@code 11 98765-4321}; US {@code (212) 555-0123}, {@code
   * 212-555-0123}, {@code 212.555.0123}, {@code 1-800-555-0123}; Portuguese mobiles {@code 912 345
   * 678}. Not after a currency sign. A number that fits none is retried from its second group, so
   * scanning stays linear (a run is at most 15 digits before it is skipped).
   */
  static void phone(String s, List<PiiMatch> out) {
    int n = s.length();
    int[] gStart = new int[MAX_PHONE_DIGITS + 1];
    int[] gLen = new int[MAX_PHONE_DIGITS + 1];
    boolean[] paren = new boolean[MAX_PHONE_DIGITS + 1];
    String[] sepBefore = new String[MAX_PHONE_DIGITS + 1];
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      boolean opener = (c == '+' || c == '(') && i + 1 < n && digit(s.charAt(i + 1));
      if (!(opener || digit(c))) {
        i++;
        continue;
      }
      if (!phoneStart(s, i)) {
        i = digit(c) ? skipDigits(s, i) : i + 1;
        continue;
      }
      boolean plus = c == '+';
      int j = plus ? i + 1 : i;
      int groups = 0;
      int digits = 0;
      boolean tooLong = false;
      String sep = "";
      while (true) {
        boolean p = j < n && s.charAt(j) == '(';
        int k = p ? j + 1 : j;
        int e = skipDigits(s, k);
        if (e == k || (p && (e >= n || s.charAt(e) != ')'))) break;
        if (digits + (e - k) > MAX_PHONE_DIGITS) {
          tooLong = true;
          break;
        }
        gStart[groups] = k;
        gLen[groups] = e - k;
        paren[groups] = p;
        sepBefore[groups] = sep;
        groups++;
        digits += e - k;
        j = p ? e + 1 : e;
        int m = j;
        while (m < n && m - j < 3 && (s.charAt(m) == ' ' || s.charAt(m) == '-' || s.charAt(m) == '.')) m++;
        boolean more = m < n && (digit(s.charAt(m)) || (s.charAt(m) == '(' && m + 1 < n && digit(s.charAt(m + 1))));
        if (!more || (m == j && !p)) break;
        sep = s.substring(j, m).strip();
        if (sep.isEmpty()) sep = " ";
        j = m;
      }
      int end = groups == 0 ? -1 : (paren[groups - 1] ? gStart[groups - 1] + gLen[groups - 1] + 1 : gStart[groups - 1] + gLen[groups - 1]);
      if (!tooLong && groups > 0 && cleanEnd(s, end) && !afterCurrency(s, i)
          && phoneForm(s, plus, digits, groups, gStart, gLen, paren, sepBefore)) {
        out.add(new PiiMatch(PiiType.PHONE, i, end, phoneKey(s, i, end)));
        i = end;
      } else if (groups >= 2) {
        i = paren[1] ? gStart[1] - 1 : gStart[1];
      } else {
        i = Math.max(i + 1, end);
      }
    }
  }

  private static boolean phoneStart(String s, int i) {
    if (!cleanStart(s, i)) return false;
    if (i == 0) return true;
    char p = s.charAt(i - 1);
    return p != '+' && p != '(' && p != '$' && p != '€' && p != '£';
  }

  private static boolean afterCurrency(String s, int i) {
    for (int k = i - 1; k >= 0 && k >= i - 3; k--) {
      char c = s.charAt(k);
      if (c == '$' || c == '€' || c == '£') return true;
      if (c != ' ' && c != '\u00a0') return false;
    }
    return false;
  }

  private static String phoneKey(String s, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int k = from; k < to; k++) if (digit(s.charAt(k))) b.append(s.charAt(k));
    return b.toString();
  }

  private static boolean phoneForm(String s, boolean plus, int digits, int groups, int[] st, int[] len,
      boolean[] paren, String[] sep) {
    if (plus) return digits >= 8 && s.charAt(st[0]) != '0';
    char first = s.charAt(st[0]);
    if (groups == 3 && paren[0] && len[0] == 2 && first != '0' && s.charAt(st[0] + 1) != '0') { // Brazil (11) 98765-4321
      boolean mobile = len[1] == 5 && s.charAt(st[1]) == '9';
      boolean fixed = len[1] == 4 && s.charAt(st[1]) >= '2' && s.charAt(st[1]) <= '5';
      return (mobile || fixed) && len[2] == 4 && (sep[2].equals("-") || sep[2].equals(" ")) && !paren[1] && !paren[2];
    }
    if (groups == 2 && paren[0] && len[0] == 2 && first != '0' && len[1] == 9 && s.charAt(st[1]) == '9') return true;
    if (groups == 3 && !paren[0] && len[0] == 2 && first != '0' && s.charAt(st[0] + 1) != '0' && len[1] == 5
        && s.charAt(st[1]) == '9' && len[2] == 4 && sep[1].equals(" ") && sep[2].equals("-")) {
      return true; // Brazil 11 98765-4321
    }
    if (groups == 3 && len[0] == 3 && len[1] == 3 && len[2] == 4 && !paren[1] && !paren[2]
        && nxx(s, st[0]) && nxx(s, st[1])) { // US
      if (paren[0]) return sep[2].equals("-") || sep[2].equals(" ") || sep[2].equals(".");
      return (sep[1].equals("-") || sep[1].equals(".")) && sep[2].equals(sep[1]);
    }
    if (groups == 4 && len[0] == 1 && first == '1' && len[1] == 3 && len[2] == 3 && len[3] == 4 && !paren[0]
        && nxx(s, st[1]) && nxx(s, st[2]) && sep[1].equals("-") && sep[2].equals("-") && sep[3].equals("-")) {
      return true; // US 1-800-555-0123
    }
    if (groups == 3 && !paren[0] && len[0] == 3 && len[1] == 3 && len[2] == 3 && first == '9'
        && "1236".indexOf(s.charAt(st[0] + 1)) >= 0 && sep[1].equals(" ") && sep[2].equals(" ")) {
      return true; // Portugal 912 345 678
    }
    return false;
  }

  private static boolean nxx(String s, int at) {
    return s.charAt(at) >= '2' && s.charAt(at) <= '9';
  }
}
