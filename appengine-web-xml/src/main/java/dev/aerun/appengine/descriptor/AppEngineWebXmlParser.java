package dev.aerun.appengine.descriptor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code appengine-web.xml} into an {@link AppEngineWebXml}.
 *
 * <p>The root must be {@code <appengine-web-app>} in the namespace {@value #NAMESPACE} or in no
 * namespace. Every element of the reference schema is accepted (plus {@code <default-expiration>}
 * and {@code <pagespeed>}); anything else is an error, as is a repeated single-valued element, an
 * unknown attribute, text inside a block element, a bad boolean/number/expiration, a missing
 * required attribute, both {@code <service>} and {@code <module>}, or more than one scaling block.
 * Attributes in other namespaces (e.g. {@code xsi:schemaLocation}) are ignored.
 *
 * <p>What the platform accepts but this runtime ignores or changes is accepted with a warning
 * ({@link AppEngineWebXml#warnings()}): a {@code <!DOCTYPE>} with neither an external subset nor
 * declarations, unresolved {@code ${...}} placeholders in elements the platform types as strings,
 * {@code <source-language>}, environment variables the platform sets itself, a property name close
 * to one of the runtime's {@code appengine.*} switches. A DTD that could load a file or declare
 * entities, and any entity reference, are refused (no XXE). Every failure, for any input bytes, is
 * a {@link DescriptorException}; no unchecked exception escapes. Positions are those of the start
 * of the offending element's tag where the XML parser can tell, else just after it. Thread-safe:
 * static methods with no shared state.
 */
public final class AppEngineWebXmlParser {
  /** The reference namespace of {@code appengine-web.xml}. */
  public static final String NAMESPACE = "http://appengine.google.com/ns/1.0";

  static final String ROOT = "appengine-web-app";

  private AppEngineWebXmlParser() {}

  /**
   * Parses a file; messages name it by {@code file.toString()}.
   *
   * @throws DescriptorException if the file cannot be read (missing, a directory, no permission) or
   *     its content is invalid
   */
  public static AppEngineWebXml parse(Path file) throws DescriptorException {
    String name = String.valueOf(file);
    if (file == null) {
      throw new DescriptorException(name, 0, 0, ROOT, "no file given");
    }
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in, name);
    } catch (IOException | RuntimeException e) {
      throw new DescriptorException(
          name, 0, 0, ROOT, "cannot read file: " + e.getClass().getSimpleName(), e);
    }
  }

  /**
   * Parses a stream, which is not closed.
   *
   * @param in the bytes of the descriptor (encoding from the XML declaration, default UTF-8)
   * @param fileNameForMessages the name used in error messages, e.g. {@code
   *     WEB-INF/appengine-web.xml}
   * @throws DescriptorException if the content is invalid or the stream fails
   */
  public static AppEngineWebXml parse(InputStream in, String fileNameForMessages)
      throws DescriptorException {
    String file = fileNameForMessages == null ? "<unknown>" : fileNameForMessages;
    if (in == null) {
      throw new DescriptorException(file, 0, 0, ROOT, "no input given");
    }
    List<String> warnings = new ArrayList<>();
    XmlNode root;
    try {
      root = new PositionedXmlReader(file, warnings).read(in);
    } catch (DescriptorException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      throw new DescriptorException(
          file, 0, 0, ROOT, "unreadable XML: " + e.getClass().getSimpleName(), e);
    }
    try {
      return new TopLevelReader(file, warnings).root(root);
    } catch (DescriptorException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new DescriptorException(
          file,
          root.line,
          root.column,
          ROOT,
          "internal error while reading: " + e.getClass().getSimpleName(),
          e);
    }
  }
}
