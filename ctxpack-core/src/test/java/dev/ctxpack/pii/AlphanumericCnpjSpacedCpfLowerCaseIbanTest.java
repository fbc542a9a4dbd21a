package dev.ctxpack.pii;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Three identifiers the recognisers missed: the alphanumeric CNPJ Brazil issues from July 2026
 * (check digits over ASCII values − 48), a CPF written with spaces, and an IBAN in lower case.
 */
class AlphanumericCnpjSpacedCpfLowerCaseIbanTest {
  private final PiiRedactor all = new PiiRedactor(RedactionOptions.all());

  private String redact(String text) {
    return all.session().redact(text).text();
  }

  @Test
  void theAlphanumericCnpjIsRecognisedByItsCheckDigits() {
    assertThat(CheckDigits.cnpj("12ABC34501DE35")).isTrue();
    assertThat(CheckDigits.cnpj("12ABC34501DE36")).isFalse();
    assertThat(redact("Fornecedor 12.ABC.345/01DE-35, desde 2026.")).isEqualTo("Fornecedor [CNPJ_1], desde 2026.");
    assertThat(redact("CNPJ 12 ABC 345 01DE 35.")).isEqualTo("CNPJ [CNPJ_1].");
    // a wrong check digit, a lower-case letter, a letter in the check digits: not a CNPJ
    assertThat(redact("ref 12.ABC.345/01DE-36")).isEqualTo("ref 12.ABC.345/01DE-36");
    assertThat(redact("ref 12.abc.345/01de-35")).isEqualTo("ref 12.abc.345/01de-35");
    assertThat(redact("ref 12.ABC.345/01DE-3A")).isEqualTo("ref 12.ABC.345/01DE-3A");
    // the numeric CNPJ still is one, bare and punctuated
    assertThat(redact("11.222.333/0001-81 e 11222333000181")).isEqualTo("[CNPJ_1] e [CNPJ_1]");
  }

  @Test
  void aCpfWithSpacesIsRecognisedAsTheSameNumber() {
    assertThat(redact("CPF 529 982 247 25 e 529.982.247-25")).isEqualTo("CPF [CPF_1] e [CPF_1]");
    assertThat(redact("CPF 529.982.247 25")).isEqualTo("CPF [CPF_1]");
    assertThat(redact("pedido 529 982 247 26")).isEqualTo("pedido 529 982 247 26");
    assertThat(redact("529  982 247 25")).as("two spaces are not a separator").isEqualTo("529  982 247 25");
  }

  @Test
  void anIbanInLowerCaseIsRecognisedAndReportedInCapitals() {
    Redacted r = all.session().redact("IBAN de89 3704 0044 0532 0130 00 ou DE89370400440532013000.");
    assertThat(r.text()).isEqualTo("IBAN [IBAN_1] ou [IBAN_1].");
    assertThat(redact("iban gb82 west 1234 5698 7654 32")).isEqualTo("iban [IBAN_1]");
    assertThat(redact("de89 3704 0044 0532 0130 01")).isEqualTo("de89 3704 0044 0532 0130 01");
  }
}
