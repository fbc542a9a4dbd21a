package dev.ctxpack.pii;

import static dev.ctxpack.pii.Scanners.digit;
import static dev.ctxpack.pii.Scanners.skipDigits;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The scanners for addresses: e-mail ({@code local@domain.tld}), IPv4 (dotted quads, not versions)
 * and IPv6 (RFC 4291 text forms). Called by {@link Scanners#scan} for {@link PiiType#EMAIL} and
 * {@link PiiType#IP}; like every scanner, each reads a character a bounded number of times.
 */
final class AddressScanner {
  private AddressScanner() {}

  /** Longest text form of an IPv6 address ({@code ffff:...:255.255.255.255}). */
  private static final int MAX_IPV6 = 45;
  /** Words after which a dotted quad is a version or a classification number, not an address ("EC 1.14.16.2"). */
  private static final Set<String> VERSION_WORDS = Set.of("version", "versão", "versao", "release", "build", "v", "ver", "ec");

  private static boolean hex(char c) {
    return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
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
}
