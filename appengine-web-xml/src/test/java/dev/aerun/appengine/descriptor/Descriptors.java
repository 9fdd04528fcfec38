package dev.aerun.appengine.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/** Test helpers: the body of a descriptor starts on line 2, column 1. */
final class Descriptors {
  static final String FILE = "WEB-INF/appengine-web.xml";

  private Descriptors() {}

  static String wrap(String body) {
    return "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">\n"
        + body
        + "</appengine-web-app>\n";
  }

  static AppEngineWebXml parseBody(String body) throws DescriptorException {
    return parseFull(wrap(body));
  }

  static AppEngineWebXml parseFull(String xml) throws DescriptorException {
    return AppEngineWebXmlParser.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), FILE);
  }

  static DescriptorException errorFull(String xml) {
    return assertThrows(DescriptorException.class, () -> parseFull(xml));
  }

  /** Asserts the error's location, element and that the message contains {@code fragment}. */
  static DescriptorException assertBodyError(
      String body, int line, int column, String element, String fragment) {
    return assertFullError(wrap(body), line, column, element, fragment);
  }

  static DescriptorException assertFullError(
      String xml, int line, int column, String element, String fragment) {
    DescriptorException e = errorFull(xml);
    String prefix = FILE + ":" + line + ":" + column + ": " + element + ": ";
    assertTrue(e.getMessage().startsWith(prefix), () -> "expected " + prefix + " in " + e);
    assertTrue(e.getMessage().contains(fragment), () -> "expected '" + fragment + "' in " + e);
    assertEquals(FILE, e.file());
    assertEquals(line, e.line());
    assertEquals(column, e.column());
    assertEquals(element, e.element());
    assertTrue(!e.getMessage().contains("\n"), "message is one line");
    return e;
  }
}
