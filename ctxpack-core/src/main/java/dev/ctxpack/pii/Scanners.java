package dev.ctxpack.pii;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The recognisers: one hand-written scanner per type, each reading every character a bounded number
 * of times (no regular expressions, no backtracking). A scanner appends what it finds to {@code out}
 * in text order; overlaps between types are settled by {@link PiiRedactor}.
 */
final class Scanners {
  private Scanners() {}

  /** Longest text form of an IPv6 address ({@code ffff:...:255.255.255.255}). */
  private static final int MAX_IPV6 = 45;
  private static final int MAX_PHONE_DIGITS = 15;
  /** Words after which a dotted quad is a version or a classification number, not an address ("EC 1.14.16.2"). */
  private static final Set<String> VERSION_WORDS = Set.of("version", "versão", "versao", "release", "build", "v", "ver", "ec");

  static void scan(PiiType type, String s, List<PiiMatch> out) {
    switch (type) {
      case EMAIL -> email(s, out);
      case IBAN -> iban(s, out);
      case CNPJ -> cnpj(s, out);
      case CPF -> cpf(s, out);
      case CARD -> card(s, out);
      case IP -> {
        ipv4(s, out);
        ipv6(s, out);
      }
      case PHONE -> phone(s, out);
    }
  }

  // ---- shared boundaries ----

  static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean hex(char c) {
    return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean numberJoiner(char c) {
    return c == '.' || c == ',' || c == '-' || c == '/';
  }

  /** Nothing word-like before {@code i}: no letter or digit, no digit joined by {@code . , - /}. */
  private static boolean cleanStart(String s, int i) {
    if (i == 0) return true;
    char p = s.charAt(i - 1);
    if (Character.isLetterOrDigit(p) || p == '_') return false;
    return !(numberJoiner(p) && i >= 2 && digit(s.charAt(i - 2)));
  }

  /** Nothing word-like from {@code e}: no letter or digit, no {@code . , - /} followed by a digit. */
  private static boolean cleanEnd(String s, int e) {
    if (e >= s.length()) return true;
    char c = s.charAt(e);
    if (Character.isLetterOrDigit(c) || c == '_') return false;
    return !(numberJoiner(c) && e + 1 < s.length() && digit(s.charAt(e + 1)));
  }

  private static int skipDigits(String s, int i) {
    while (i < s.length() && digit(s.charAt(i))) i++;
    return i;
  }

  // ---- e-mail ----

  private static boolean localChar(char c) {
    return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
  }

  private static boolean domainChar(char c) {
    return Character.isLetterOrDigit(c) || c == '.' || c == '-';
  }

  /** {@code local@domain.tld}: each '@' scans left over the local part and right over the domain (disjoint stretches). */
  static void email(String s, List<PiiMatch> out) {
    int n = s.length();
    for (int at = s.indexOf('@'); at >= 0; at = s.indexOf('@', at + 1)) {
      int l = at;
      while (l > 0 && localChar(s.charAt(l - 1))) l--;
      while (l < at && (s.charAt(l) == '.' || s.charAt(l) == '-' || s.charAt(l) == '+')) l++;
      if (l == at || s.charAt(at - 1) == '.') continue;
      int r = at + 1;
      while (r < n && domainChar(s.charAt(r))) r++;
      while (r > at + 1 && (s.charAt(r - 1) == '.' || s.charAt(r - 1) == '-')) r--;
      if (!validDomain(s, at + 1, r)) continue;
      out.add(new PiiMatch(PiiType.EMAIL, l, r, s.substring(l, r).toLowerCase(Locale.ROOT)));
    }
  }

  private static boolean validDomain(String s, int from, int to) {
    if (to - from < 4) return false;
    int labelStart = from;
    int labels = 0;
    for (int i = from; i <= to; i++) {
      if (i == to || s.charAt(i) == '.') {
        if (i == labelStart) return false;
        labels++;
        if (i == to) {
          if (i - labelStart < 2) return false;
          for (int k = labelStart; k < i; k++) if (!Character.isLetter(s.charAt(k))) return false;
        }
        labelStart = i + 1;
      }
    }
    return labels >= 2;
  }

  // ---- IBAN ----

  private static boolean upper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  /** Country code, two check digits, the country's BBAN length of capitals and digits, single spaces allowed; mod 97 = 1. */
  static void iban(String s, List<PiiMatch> out) {
    int n = s.length();
    StringBuilder b = new StringBuilder(34);
    for (int i = 0; i + 4 <= n; i++) {
      if (!upper(s.charAt(i)) || !upper(s.charAt(i + 1)) || !cleanStart(s, i)) continue;
      int len = CheckDigits.ibanLength(s.substring(i, i + 2));
      if (len == 0 || !digit(s.charAt(i + 2)) || !digit(s.charAt(i + 3))) continue;
      b.setLength(0);
      b.append(s, i, i + 4);
      int j = i + 4;
      while (b.length() < len && j < n) {
        char c = s.charAt(j);
        if (c == ' ' && j + 1 < n && j > i + 3 && s.charAt(j - 1) != ' ') {
          j++;
          continue;
        }
        if (!(digit(c) || upper(c))) break;
        b.append(c);
        j++;
      }
      if (b.length() != len || !cleanEnd(s, j) || !CheckDigits.iban(b)) continue;
      out.add(new PiiMatch(PiiType.IBAN, i, j, b.toString()));
      i = j - 1;
    }
  }

  // ---- CPF and CNPJ ----

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

  // ---- IP addresses ----

  /** Dotted quad, each part 0-255 without leading zeros; not after a version word, not part of a longer dotted number. */
  static void ipv4(String s, List<PiiMatch> out) {
    int n = s.length();
    int i = 0;
    while (i < n) {
      if (!digit(s.charAt(i))) {
        i++;
        continue;
      }
      if (i > 0 && (Character.isLetterOrDigit(s.charAt(i - 1)) || s.charAt(i - 1) == '.' || s.charAt(i - 1) == '_')) {
        i = skipDigits(s, i);
        continue;
      }
      int end = quad(s, i);
      if (end > 0 && !(end < n && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_'))
          && !(end + 1 < n && s.charAt(end) == '.' && digit(s.charAt(end + 1))) && !afterVersionWord(s, i)) {
        out.add(new PiiMatch(PiiType.IP, i, end, s.substring(i, end)));
        i = end;
      } else {
        i = skipDigits(s, i);
      }
    }
  }

  /** The end of a valid dotted quad starting at {@code i}, or -1. */
  private static int quad(String s, int i) {
    int j = i;
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        if (j >= s.length() || s.charAt(j) != '.') return -1;
        j++;
      }
      int e = skipDigits(s, j);
      int len = e - j;
      if (len == 0 || len > 3 || (len > 1 && s.charAt(j) == '0')) return -1;
      if (Integer.parseInt(s, j, e, 10) > 255) return -1;
      j = e;
    }
    return j;
  }

  private static boolean afterVersionWord(String s, int i) {
    int j = i;
    while (j > 0 && i - j < 3 && (s.charAt(j - 1) == ' ' || s.charAt(j - 1) == '.')) j--;
    int e = j;
    while (j > 0 && e - j < 8 && Character.isLetter(s.charAt(j - 1))) j--;
    if (j > 0 && Character.isLetter(s.charAt(j - 1))) return false;
    return e > j && VERSION_WORDS.contains(s.substring(j, e).toLowerCase(Locale.ROOT));
  }

  private static boolean ipv6Char(char c) {
    return hex(c) || c == ':' || c == '.';
  }

  /** RFC 4291 text forms (eight groups, one {@code ::}, an embedded IPv4 tail), at least one digit. */
  static void ipv6(String s, List<PiiMatch> out) {
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (!(hex(c) || c == ':')) {
        i++;
        continue;
      }
      boolean start = i == 0 || !(Character.isLetterOrDigit(s.charAt(i - 1)) || s.charAt(i - 1) == '_'
          || s.charAt(i - 1) == ':' || s.charAt(i - 1) == '.');
      int j = i;
      while (j < n && ipv6Char(s.charAt(j))) j++;
      int runEnd = j;
      if (start) {
        while (j > i && s.charAt(j - 1) == '.') j--;
        if (j - i >= 2 && s.charAt(j - 1) == ':' && s.charAt(j - 2) != ':') j--;
        boolean clean = runEnd >= n || !(Character.isLetterOrDigit(s.charAt(runEnd)) || s.charAt(runEnd) == '_');
        if (clean && j - i <= MAX_IPV6 && validIpv6(s, i, j)) {
          out.add(new PiiMatch(PiiType.IP, i, j, s.substring(i, j).toLowerCase(Locale.ROOT)));
        }
      }
      i = Math.max(runEnd, i + 1);
    }
  }

  static boolean validIpv6(String s, int from, int to) {
    String a = s.substring(from, to);
    int colons = 0;
    boolean anyDigit = false;
    for (int k = 0; k < a.length(); k++) {
      if (a.charAt(k) == ':') colons++;
      if (digit(a.charAt(k))) anyDigit = true;
    }
    if (colons < 2 || !anyDigit) return false;
    int groups = 0;
    int dot = a.indexOf('.');
    if (dot >= 0) {
      int lastColon = a.lastIndexOf(':');
      if (dot < lastColon || quad(a, lastColon + 1) != a.length()) return false;
      a = a.substring(0, lastColon + 1) + "0:0";
    }
    int dbl = a.indexOf("::");
    if (dbl >= 0 && a.indexOf("::", dbl + 1) >= 0) return false;
    if (dbl >= 0) {
      String left = a.substring(0, dbl);
      String right = a.substring(dbl + 2);
      int gl = hexGroups(left);
      int gr = hexGroups(right);
      if (gl < 0 || gr < 0) return false;
      groups = gl + gr;
      return groups <= 7;
    }
    groups = hexGroups(a);
    return groups == 8;
  }

  /** The number of 1-4 hex digit groups in a colon-separated list ("" is none), or -1 if malformed. */
  private static int hexGroups(String part) {
    if (part.isEmpty()) return 0;
    int groups = 0;
    int len = 0;
    for (int k = 0; k <= part.length(); k++) {
      if (k == part.length() || part.charAt(k) == ':') {
        if (len == 0 || len > 4) return -1;
        groups++;
        len = 0;
      } else if (hex(part.charAt(k))) {
        len++;
      } else {
        return -1;
      }
    }
    return groups;
  }

  // ---- phone numbers ----

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
