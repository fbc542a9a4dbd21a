package dev.ctxpack.pii;

import java.util.Map;

/** The check-digit rules the number recognisers validate with. All take ASCII digits (and letters for IBAN). */
public final class CheckDigits {
  private CheckDigits() {}

  /** Luhn (ISO/IEC 7812): payment card numbers. */
  public static boolean luhn(CharSequence digits) {
    int sum = 0;
    boolean twice = false;
    for (int i = digits.length() - 1; i >= 0; i--) {
      int d = digits.charAt(i) - '0';
      if (d < 0 || d > 9) return false;
      if (twice) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      twice = !twice;
    }
    return digits.length() > 0 && sum % 10 == 0;
  }

  /** ISO 13616 / ISO 7064 mod 97-10: the IBAN (country, check digits, BBAN; no spaces) leaves remainder 1. */
  public static boolean iban(CharSequence iban) {
    int n = iban.length();
    if (n < 5) return false;
    int rem = 0;
    for (int k = 0; k < n; k++) {
      char c = iban.charAt((k + 4) % n);
      if (c >= '0' && c <= '9') {
        rem = (rem * 10 + (c - '0')) % 97;
      } else if (c >= 'A' && c <= 'Z') {
        rem = (rem * 100 + (c - 'A' + 10)) % 97;
      } else {
        return false;
      }
    }
    return rem == 1;
  }

  /** CPF: eleven digits, both check digits valid, not all the same digit. */
  public static boolean cpf(CharSequence d) {
    if (d.length() != 11 || sameDigits(d)) return false;
    return d.charAt(9) - '0' == cpfDigit(d, 9) && d.charAt(10) - '0' == cpfDigit(d, 10);
  }

  /** The CPF check digit at position {@code n} (9 or 10) from the {@code n} digits before it. */
  public static int cpfDigit(CharSequence d, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) sum += (d.charAt(i) - '0') * (n + 1 - i);
    int r = sum * 10 % 11;
    return r == 10 ? 0 : r;
  }

  /**
   * CNPJ: fourteen characters, the first twelve digits or capital letters (the alphanumeric CNPJ),
   * the last two digits, both check digits valid, not all the same character.
   */
  public static boolean cnpj(CharSequence d) {
    if (d.length() != 14 || sameDigits(d)) return false;
    for (int i = 0; i < 14; i++) {
      char c = d.charAt(i);
      boolean ok = (c >= '0' && c <= '9') || (i < 12 && c >= 'A' && c <= 'Z');
      if (!ok) return false;
    }
    return d.charAt(12) - '0' == cnpjDigit(d, 12) && d.charAt(13) - '0' == cnpjDigit(d, 13);
  }

  /**
   * The CNPJ check digit at position {@code n} (12 or 13) from the {@code n} characters before it,
   * each worth its ASCII code − 48 (a digit its value, {@code A} 17 ... {@code Z} 42).
   */
  public static int cnpjDigit(CharSequence d, int n) {
    int sum = 0;
    int w = n - 7; // weights 5,4,3,2,9,8,...,2 for n = 12; 6,5,4,3,2,9,...,2 for n = 13
    for (int i = 0; i < n; i++) {
      sum += (d.charAt(i) - '0') * w;
      w = w == 2 ? 9 : w - 1;
    }
    int r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  }

  private static boolean sameDigits(CharSequence d) {
    for (int i = 1; i < d.length(); i++) if (d.charAt(i) != d.charAt(0)) return false;
    return true;
  }

  /** IBAN lengths by country (the SWIFT IBAN registry); a country not listed is not an IBAN. */
  public static int ibanLength(String country) {
    return IBAN_LENGTHS.getOrDefault(country, 0);
  }

  private static final Map<String, Integer> IBAN_LENGTHS = Map.ofEntries(
      Map.entry("AD", 24), Map.entry("AE", 23), Map.entry("AL", 28), Map.entry("AT", 20), Map.entry("AZ", 28),
      Map.entry("BA", 20), Map.entry("BE", 16), Map.entry("BG", 22), Map.entry("BH", 22), Map.entry("BR", 29),
      Map.entry("BY", 28), Map.entry("CH", 21), Map.entry("CR", 22), Map.entry("CY", 28), Map.entry("CZ", 24),
      Map.entry("DE", 22), Map.entry("DK", 18), Map.entry("DO", 28), Map.entry("EE", 20), Map.entry("EG", 29),
      Map.entry("ES", 24), Map.entry("FI", 18), Map.entry("FO", 18), Map.entry("FR", 27), Map.entry("GB", 22),
      Map.entry("GE", 22), Map.entry("GI", 23), Map.entry("GL", 18), Map.entry("GR", 27), Map.entry("GT", 28),
      Map.entry("HR", 21), Map.entry("HU", 28), Map.entry("IE", 22), Map.entry("IL", 23), Map.entry("IQ", 23),
      Map.entry("IS", 26), Map.entry("IT", 27), Map.entry("JO", 30), Map.entry("KW", 30), Map.entry("KZ", 20),
      Map.entry("LB", 28), Map.entry("LC", 32), Map.entry("LI", 21), Map.entry("LT", 20), Map.entry("LU", 20),
      Map.entry("LV", 21), Map.entry("MC", 27), Map.entry("MD", 24), Map.entry("ME", 22), Map.entry("MK", 19),
      Map.entry("MR", 27), Map.entry("MT", 31), Map.entry("MU", 30), Map.entry("NL", 18), Map.entry("NO", 15),
      Map.entry("PK", 24), Map.entry("PL", 28), Map.entry("PS", 29), Map.entry("PT", 25), Map.entry("QA", 29),
      Map.entry("RO", 24), Map.entry("RS", 22), Map.entry("SA", 24), Map.entry("SC", 31), Map.entry("SE", 24),
      Map.entry("SI", 19), Map.entry("SK", 24), Map.entry("SM", 27), Map.entry("ST", 25), Map.entry("SV", 28),
      Map.entry("TL", 23), Map.entry("TN", 24), Map.entry("TR", 26), Map.entry("UA", 29), Map.entry("VA", 22),
      Map.entry("VG", 24), Map.entry("XK", 20));
}
