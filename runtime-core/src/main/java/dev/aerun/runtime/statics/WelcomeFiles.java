package dev.aerun.runtime.statics;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.NodeList;

/**
 * The welcome files of {@code WEB-INF/web.xml}'s {@code <welcome-file-list>}. Read here rather than
 * from the webapp because the static files sit in front of it, outside any EE version's API.
 */
final class WelcomeFiles {
  private static final Logger log = Logger.getLogger(WelcomeFiles.class.getName());

  private WelcomeFiles() {}

  /** The list, or empty when the app has no {@code web.xml} or no list in it. */
  static Optional<List<String>> read(Path appRoot) {
    Path webXml = appRoot.resolve("WEB-INF").resolve("web.xml");
    if (!Files.isRegularFile(webXml)) {
      return Optional.empty();
    }
    try (InputStream in = Files.newInputStream(webXml)) {
      // The JDK's own parser: no service look-up through every jar of the class path.
      DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
      factory.setNamespaceAware(true);
      // web.xml is the app's own file, but it need not reach the network or the disk to be read.
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      NodeList nodes = builder.parse(in).getElementsByTagNameNS("*", "welcome-file");
      List<String> files = new ArrayList<>();
      for (int i = 0; i < nodes.getLength(); i++) {
        String name = nodes.item(i).getTextContent().trim().replaceFirst("^/+", "");
        if (!name.isEmpty()) {
          files.add(name);
        }
      }
      return files.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(files));
    } catch (Exception e) {
      // The webapp reports a broken web.xml itself; static files then use the defaults.
      log.log(Level.FINE, "Cannot read welcome files from " + webXml, e);
      return Optional.empty();
    }
  }
}
