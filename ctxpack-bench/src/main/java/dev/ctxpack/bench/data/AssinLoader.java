package dev.ctxpack.bench.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * ASSIN ({@code assin-pt{br,pt}-{train,dev,test}.xml}): {@code <pair entailment="None|Entailment|Paraphrase"
 * id="…" similarity="1.0–5.0"><t>…</t><h>…</h></pair>}. A pair is a paraphrase when its entailment
 * is {@code Paraphrase}. External entities and DTDs are refused.
 */
public final class AssinLoader {
  /** The six files, pt-BR then pt-PT, train, dev, test. */
  public static final List<String> FILES = List.of("assin-ptbr-train.xml", "assin-ptbr-dev.xml", "assin-ptbr-test.xml",
      "assin-ptpt-train.xml", "assin-ptpt-dev.xml", "assin-ptpt-test.xml");

  private AssinLoader() {}

  /** Every pair of the six files in {@code dir}. */
  public static List<TextPair> loadAll(Path dir) throws IOException {
    List<TextPair> out = new ArrayList<>();
    for (String f : FILES) out.addAll(load(dir.resolve(f)));
    return out;
  }

  public static List<TextPair> load(Path file) throws IOException {
    String set = file.getFileName().toString().replaceFirst("\\.xml$", "");
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString(), set);
    }
  }

  public static List<TextPair> read(InputStream in, String source, String set) throws IOException {
    org.w3c.dom.Document doc;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      doc = b.parse(in, source);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(source + ": not ASSIN XML: " + e.getMessage(), e);
    }
    NodeList pairs = doc.getElementsByTagName("pair");
    List<TextPair> out = new ArrayList<>(pairs.getLength());
    for (int i = 0; i < pairs.getLength(); i++) {
      Element p = (Element) pairs.item(i);
      String id = p.getAttribute("id");
      String entailment = p.getAttribute("entailment");
      if (id.isBlank()) throw new IOException(source + ": pair #" + (i + 1) + " has no id");
      if (!List.of("None", "Entailment", "Paraphrase").contains(entailment)) {
        throw new IOException(source + ": pair " + id + ": entailment must be None, Entailment or Paraphrase, was '" + entailment + "'");
      }
      double similarity;
      try {
        similarity = p.getAttribute("similarity").isBlank() ? Double.NaN : Double.parseDouble(p.getAttribute("similarity"));
      } catch (NumberFormatException e) {
        throw new IOException(source + ": pair " + id + ": similarity '" + p.getAttribute("similarity") + "' is not a number");
      }
      String t = child(p, "t", source, id);
      String h = child(p, "h", source, id);
      out.add(new TextPair(set + ":" + id, set, t, h, entailment, entailment.equals("Paraphrase"), similarity));
    }
    return out;
  }

  private static String child(Element p, String tag, String source, String id) throws IOException {
    NodeList l = p.getElementsByTagName(tag);
    if (l.getLength() != 1) throw new IOException(source + ": pair " + id + ": expected one <" + tag + ">, found " + l.getLength());
    String text = l.item(0).getTextContent().strip();
    if (text.isEmpty()) throw new IOException(source + ": pair " + id + ": empty <" + tag + ">");
    return text;
  }
}
