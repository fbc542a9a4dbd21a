package dev.ctxpack.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Generated valid numbers in pt and en text are always found; one digit off, never. */
class PiiRedactorPropertiesTest {
  private final PiiRedactor all = new PiiRedactor(RedactionOptions.all());

  @Provide
  Arbitrary<PiiType> generated() {
    return Arbitraries.of(PiiSamples.GENERATED);
  }

  @Property(tries = 1000)
  void everyValidNumberIsRedactedWholeWhereverItIsWritten(@ForAll("generated") PiiType type, @ForAll long seed) {
    Random r = new Random(seed);
    PiiSamples.Sample s = PiiSamples.valid(type, r);
    assertThat(PiiSamples.passes(type, s.text())).as("generator made an invalid %s %s", type, s.text()).isTrue();
    String text = PiiSamples.embed(s.text(), r);
    int at = text.indexOf(s.text());
    List<PiiMatch> found = all.find(text);
    PiiMatch m = found.stream().filter(x -> x.start() == at).findFirst().orElse(null);
    assertThat(m).as("%s %s not found in: %s (found %s)", type, s.text(), text, found).isNotNull();
    assertThat(m.end()).as("%s %s in: %s", type, s.text(), text).isEqualTo(at + s.text().length());
    // A number that also passes a higher-priority check (a bare 14-digit card that is a valid CNPJ) may carry that type.
    if (m.type() != type) assertThat(PiiSamples.passes(m.type(), s.text())).as("%s typed %s", s.text(), m.type()).isTrue();
    Redacted red = all.session().redact(text);
    assertThat(red.text()).doesNotContain(s.text()).contains("[" + m.type().label() + "_1]");
  }

  @Property(tries = 1000)
  void oneDigitOffIsNeverRedactedAsItsType(@ForAll("generated") PiiType type, @ForAll long seed) {
    Random r = new Random(seed);
    PiiSamples.Sample off = PiiSamples.oneDigitOff(PiiSamples.valid(type, r), r);
    String text = PiiSamples.embed(off.text(), r);
    PiiRedactor own = new PiiRedactor(new RedactionOptions(EnumSet.of(type)));
    assertThat(own.find(text)).as("%s one digit off: %s", type, text).isEmpty();
    int at = text.indexOf(off.text());
    // With every type on, what is taken from the changed number must be a valid number of another kind
    // on its own (the last 19 digits of a broken IBAN can be a Luhn-valid card).
    for (PiiMatch m : all.find(text)) {
      if (m.end() > at && m.start() < at + off.text().length()) {
        String taken = text.substring(m.start(), m.end());
        assertThat(m.type()).isNotEqualTo(type);
        assertThat(PiiSamples.passes(m.type(), taken)).as("%s taken as %s in %s", taken, m.type(), text).isTrue();
      }
    }
  }

  @Property(tries = 300)
  void offsetMapRoundTripsOutsidePlaceholders(@ForAll("generated") PiiType type, @ForAll long seed) {
    Random r = new Random(seed);
    String a = PiiSamples.valid(type, r).text();
    String text = PiiSamples.embed(a, r) + " " + PiiSamples.embed(PiiSamples.valid(type, r).text(), r) + " mail ana@example.org";
    Redacted red = all.session().redact(text);
    for (Redaction x : red.redactions()) {
      assertThat(red.text().substring(x.redactedStart(), x.redactedEnd())).isEqualTo(x.placeholder());
      assertThat(red.toOriginal(x.redactedStart())).isEqualTo(x.start());
      assertThat(red.toOriginal(x.redactedEnd())).isEqualTo(x.end());
      assertThat(red.toRedacted(x.start())).isEqualTo(x.redactedStart());
    }
    // Every character outside a placeholder maps back to the same character of the original.
    for (int i = 0; i < red.text().length(); i++) {
      int o = red.toOriginal(i);
      boolean inside = false;
      for (Redaction x : red.redactions()) inside |= i >= x.redactedStart() && i < x.redactedEnd();
      if (!inside) assertThat(text.charAt(o)).isEqualTo(red.text().charAt(i));
    }
  }
}
