package dev.ctxpack.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PiiRedactorTest {
  private final PiiRedactor all = new PiiRedactor(RedactionOptions.all());

  private List<String> found(String text) {
    return all.find(text).stream().map(m -> m.type() + ":" + text.substring(m.start(), m.end())).toList();
  }

  @Test
  void placeholdersAreNumberedByFirstAppearanceAndReusedForTheSameValue() {
    PiiRedactor.Session s = all.session();
    Redacted a = s.redact("Ana (ana@example.org) e Rui (rui@example.org); CPF 529.982.247-25.");
    Redacted b = s.redact("De novo: ANA@example.org e o CPF 52998224725.");
    assertThat(a.text()).isEqualTo("Ana ([EMAIL_1]) e Rui ([EMAIL_2]); CPF [CPF_1].");
    assertThat(b.text()).isEqualTo("De novo: [EMAIL_1] e o CPF [CPF_1].");
    assertThat(a.redactions()).extracting(Redaction::start, Redaction::end).containsExactly(
        org.assertj.core.groups.Tuple.tuple(5, 20), org.assertj.core.groups.Tuple.tuple(29, 44),
        org.assertj.core.groups.Tuple.tuple(51, 65));
    assertThat(a.toOriginal(a.text().indexOf(") e Rui"))).isEqualTo(20);
    assertThat(a.toRedacted(20)).isEqualTo(a.text().indexOf(") e Rui"));
  }

  @Test
  void emailEdgeCases() {
    assertThat(found("write to first.last+tag@sub.example.co.uk.")).containsExactly("EMAIL:first.last+tag@sub.example.co.uk");
    assertThat(found("contato: joão.silva@empresa.com.br, obrigado")).containsExactly("EMAIL:joão.silva@empresa.com.br");
    assertThat(found("@mention, user@localhost, a@b.c, x@.com, .@example.org, y@example.123")).isEmpty();
  }

  @Test
  void phoneForms() {
    assertThat(found("Ligue (11) 98765-4321 ou (21) 3456-7890.")).containsExactly("PHONE:(11) 98765-4321", "PHONE:(21) 3456-7890");
    assertThat(found("WhatsApp 11 98765-4321; +55 11 98765-4321")).containsExactly("PHONE:11 98765-4321", "PHONE:+55 11 98765-4321");
    assertThat(found("Telemóvel 912 345 678 ou +351 912 345 678.")).containsExactly("PHONE:912 345 678", "PHONE:+351 912 345 678");
    assertThat(found("Call (212) 555-0123, 212-555-0123, 212.555.0123 or 1-800-555-0123."))
        .containsExactly("PHONE:(212) 555-0123", "PHONE:212-555-0123", "PHONE:212.555.0123", "PHONE:1-800-555-0123");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "Between 1990-1995 and 2019-2020 the rate rose.", "Em 15/03/2024 e 2024-03-15 às 10:30:45.",
      "It costs $1,234.56 or R$ 1.234,56 or € 912 345 678.", "ISBN 978-3-16-148410-0 and 0-306-40615-2.",
      "Version 1.2.3.4, versão 10.0.0.1 and v2.0.1 are out.", "Tyrosine hydroxylase (TH, EC 1.14.16.2) was purified.",
      "Conta AT19 4509 4134 6382 4105 com um dígito trocado.", "Account GB47 HJAW 6361 1776 8293 17, one digit changed.", "Código 36315011454493 (CNPJ com um dígito trocado).", "See DOI 10.1016/j.cell.2020.01.001 and 10.1000/182.",
      "Population 212 555 0123 and 1.234.567 people.", "Gene ID 123456789012345678 and order 4111111111111112.",
      "std::vector and a::b and MAC 00:1A:2B:3C:4D:5E.", "Tabela 3: 0.5, 1.25; p < 0.001; IC 95% 1.2-3.4.",
      "O processo 0001234-56.2020.8.26.0100 tramita.", "Ratio 3:2:1 at 12:30 and scripture 3:16."})
  void falsePositiveGuards(String text) {
    assertThat(found(text)).as(text).isEmpty();
  }

  @Test
  void ipAddresses() {
    assertThat(found("Host 192.168.0.1, 10.0.0.255 and 8.8.8.8.")).containsExactly("IP:192.168.0.1", "IP:10.0.0.255", "IP:8.8.8.8");
    assertThat(found("Bad 256.1.1.1, 1.2.3, 01.2.3.4, 1.2.3.4.5")).isEmpty();
    assertThat(found("v6 2001:db8::8a2e:370:7334, ::1, fe80::1 and 2001:0db8:85a3:0000:0000:8a2e:0370:7334."))
        .containsExactly("IP:2001:db8::8a2e:370:7334", "IP:::1", "IP:fe80::1", "IP:2001:0db8:85a3:0000:0000:8a2e:0370:7334");
    assertThat(found("mapped ::ffff:192.0.2.128 ok")).containsExactly("IP:::ffff:192.0.2.128");
    assertThat(found("bad 2001:db8::1::2 and 1:2:3:4:5:6:7 and 12345::1")).isEmpty();
  }

  @Test
  void numbersNeedTheirCheckDigitsAndALayout() {
    assertThat(found("Cartão 4111 1111 1111 1111 e 4111-1111-1111-1111 e 4111111111111111."))
        .containsExactly("CARD:4111 1111 1111 1111", "CARD:4111-1111-1111-1111", "CARD:4111111111111111");
    assertThat(found("Amex 3782 822463 10005")).containsExactly("CARD:3782 822463 10005");
    assertThat(found("PAY WITH VISA 4111 1111 1111 1111")).containsExactly("CARD:4111 1111 1111 1111");
    assertThat(found("mixed 4111 1111-1111 1111, grouped 41 1111 1111 1111 11")).isEmpty();
    assertThat(found("IBAN DE89 3704 0044 0532 0130 00 e PT50000201231234567890154."))
        .containsExactly("IBAN:DE89 3704 0044 0532 0130 00", "IBAN:PT50000201231234567890154");
    assertThat(found("not DE88 3704 0044 0532 0130 00, nor XX89 3704")).isEmpty();
    assertThat(found("CNPJ 11.222.333/0001-81 ou 11222333000181")).containsExactly("CNPJ:11.222.333/0001-81", "CNPJ:11222333000181");
    assertThat(found("CPF 111.111.111-11, 000.000.000-00, 529.982.247-24, 529.982.247-25x")).isEmpty();
  }

  @Test
  void onlyTheChosenTypesAreRedacted() {
    PiiRedactor email = new PiiRedactor(new RedactionOptions(EnumSet.of(PiiType.EMAIL)));
    assertThat(email.session().redact("ana@example.org 529.982.247-25").text()).isEqualTo("[EMAIL_1] 529.982.247-25");
    assertThat(RedactionOptions.parse("email, cpf").types()).containsExactlyInAnyOrder(PiiType.EMAIL, PiiType.CPF);
    assertThat(RedactionOptions.parse("all").describe()).isEqualTo("all");
    assertThatThrownBy(() -> RedactionOptions.parse("email,ssn")).hasMessageContaining("unknown PII type 'ssn'");
  }

  @Test
  void adversarialInputsAreScannedWithoutFindingAnything() {
    // Timing lives in ctxpack-bench; here the long runs must simply come back, with nothing found.
    for (String unit : List.of("1", "1.", "@", "a@", "f:", ":", "1-", "DE89", "(1", "+1 ", "1 ")) {
      assertThat(all.find(unit.repeat(20_000))).as("%s repeated", unit).isEmpty();
    }
  }
}
