package dev.aerun.console;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The app's {@code WEB-INF/cron.xml}, read afresh each time it is asked for (from the app's
 * directory or its {@code .war}): {@code <cronentries><cron><url/><schedule/><description/>
 * <timezone/><target/><retry-parameters/></cron>...</cronentries>}. Read with no DOCTYPE allowed:
 * nothing in it can load a file or expand an entity.
 */
final class CronJobs {
  /** The largest {@code cron.xml} read. */
  static final int MAX_BYTES = 1024 * 1024;

  static final String FILE = "WEB-INF/cron.xml";

  /**
   * One job.
   *
   * @param url the app's path the job requests
   * @param retry its retry parameters as text, "" when none
   */
  record Job(
      String url,
      String schedule,
      String description,
      String timezone,
      String target,
      String retry) {}

  private final Path app;

  /**
   * @param app the app's directory or {@code .war}
   */
  CronJobs(Path app) {
    this.app = app;
  }

  /**
   * The jobs, or empty when the app has no {@code cron.xml}.
   *
   * @throws IllegalArgumentException naming the file, and its line, when it cannot be read
   */
  Optional<List<Job>> read() {
    byte[] xml;
    try {
      xml = bytes();
    } catch (IOException e) {
      throw new IllegalArgumentException(FILE + " cannot be read: " + e.getMessage());
    }
    if (xml == null) {
      return Optional.empty();
    }
    Element root;
    try {
      root = parser().parse(new ByteArrayInputStream(xml)).getDocumentElement();
    } catch (SAXParseException e) {
      throw new IllegalArgumentException(
          FILE
              + " line "
              + e.getLineNumber()
              + ", column "
              + e.getColumnNumber()
              + ": "
              + e.getMessage());
    } catch (SAXException | IOException e) {
      throw new IllegalArgumentException(FILE + ": " + e.getMessage());
    }
    if (!root.getLocalName().equals("cronentries")) {
      throw new IllegalArgumentException(
          FILE + ": the root element is <" + root.getLocalName() + ">, not <cronentries>");
    }
    List<Job> jobs = new ArrayList<>();
    for (Element cron : children(root, "cron")) {
      String url = text(cron, "url");
      if (url.isEmpty()) {
        throw new IllegalArgumentException(FILE + ": a <cron> without a <url>");
      }
      List<String> retry = new ArrayList<>();
      for (Element parameters : children(cron, "retry-parameters")) {
        for (Element p : children(parameters, null)) {
          retry.add(p.getLocalName() + " " + p.getTextContent().trim());
        }
      }
      jobs.add(
          new Job(
              url,
              text(cron, "schedule"),
              text(cron, "description"),
              text(cron, "timezone"),
              text(cron, "target"),
              String.join(", ", retry)));
    }
    return Optional.of(List.copyOf(jobs));
  }

  /** The file's bytes, or null when the app has none. */
  private byte[] bytes() throws IOException {
    if (Files.isDirectory(app)) {
      Path file = app.resolve(FILE);
      if (!Files.isRegularFile(file)) {
        return null;
      }
      if (Files.size(file) > MAX_BYTES) {
        throw new IOException("larger than " + MAX_BYTES + " bytes");
      }
      return Files.readAllBytes(file);
    }
    try (ZipFile war = new ZipFile(app.toFile())) {
      ZipEntry entry = war.getEntry(FILE);
      if (entry == null) {
        return null;
      }
      try (InputStream in = war.getInputStream(entry)) {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
          throw new IOException("larger than " + MAX_BYTES + " bytes");
        }
        return bytes;
      }
    }
  }

  private static DocumentBuilder parser() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(null);
      return builder;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The child elements named {@code name} (any, for null). */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && (name == null || name.equals(e.getLocalName()))) {
        found.add(e);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? "" : found.get(0).getTextContent().trim();
  }
}
