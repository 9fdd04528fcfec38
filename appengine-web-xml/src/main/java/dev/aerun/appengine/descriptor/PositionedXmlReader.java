package dev.aerun.appengine.descriptor;

import static dev.aerun.appengine.descriptor.AppEngineWebXmlParser.NAMESPACE;
import static dev.aerun.appengine.descriptor.AppEngineWebXmlParser.ROOT;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads the descriptor's bytes into a tree of {@link XmlNode}s, each with the line and column of
 * its start tag. Decodes the bytes itself (BOM, the declaration's encoding, default UTF-8), refuses
 * DTDs, entity references, foreign namespaces and a wrong root; every failure is a located {@link
 * DescriptorException}.
 */
final class PositionedXmlReader {
  private static final int MAX_BYTES = 16 * 1024 * 1024;
  private static final Pattern ENCODING =
      Pattern.compile("encoding\\s*=\\s*(['\"])([A-Za-z0-9._:-]+)\\1");

  /**
   * A DOCTYPE that names the root and has at most an internal subset of comments: it can neither
   * load a file nor declare an entity, and is what some tools write. Anything else is refused. It
   * is matched against the source text (the parser's own text for it is garbled for some inputs)
   * from the last {@code <!DOCTYPE} before its end, which could only cut it into something that
   * fails this pattern: a comment cannot hold {@code <!--}.
   */
  private static final Pattern HARMLESS_DOCTYPE =
      Pattern.compile(
          "<!DOCTYPE\\s+[A-Za-z_][\\w.:-]*\\s*(\\[(\\s|<!--(?:(?!-->)[^\\x00])*-->)*\\]\\s*)?>");

  private final String file;
  private final List<String> warnings;

  PositionedXmlReader(String file, List<String> warnings) {
    this.file = file;
    this.warnings = warnings;
  }

  XmlNode read(InputStream in) throws DescriptorException {
    // The JDK's own parser, always: no look-up through the class path's service files (which
    // opens every jar at start-up), and the same behaviour whatever libraries are beside it.
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    factory.setXMLReporter((message, type, info, location) -> {});
    trySet(factory, XMLConstants.ACCESS_EXTERNAL_DTD, "");
    trySet(factory, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    Deque<XmlNode> open = new ArrayDeque<>();
    XmlNode root = null;
    XMLStreamReader r = null;
    int line = 1;
    int column = 1;
    try {
      String source = decode(in);
      r = factory.createXMLStreamReader(new StringReader(source));
      boolean afterText = false;
      while (r.hasNext()) {
        // The reader's location is exact after tags and comments; after text it may be one past
        // the '<' it peeked, so after text we advance through the text ourselves.
        Location before = r.getLocation();
        if (!afterText && before != null && before.getLineNumber() > 0) {
          line = before.getLineNumber();
          column = Math.max(1, before.getColumnNumber());
        }
        afterText = false;
        int event = r.next();
        switch (event) {
          case XMLStreamConstants.DTD -> {
            Location at = r.getLocation();
            int end = at == null ? -1 : at.getCharacterOffset();
            int start = end <= 0 ? -1 : source.lastIndexOf("<!DOCTYPE", end - 1);
            int l = line;
            int c = column;
            if (start >= 0) { // report where the DOCTYPE starts
              l = 1;
              c = 1;
              for (int i = 0; i < start; i++) {
                if (source.charAt(i) == '\n') {
                  l++;
                  c = 1;
                } else {
                  c++;
                }
              }
            }
            String doctype = start < 0 ? "" : source.substring(start, end).strip();
            if (!HARMLESS_DOCTYPE.matcher(doctype).matches()) {
              throw new DescriptorException(
                  file,
                  l,
                  c,
                  ROOT,
                  "DOCTYPE declarations with an external DTD, declarations or entities are not"
                      + " allowed; remove the DOCTYPE");
            }
            warnings.add(
                DescriptorException.format(file, l, c, ROOT, "the DOCTYPE declaration is ignored"));
          }
          case XMLStreamConstants.ENTITY_REFERENCE ->
              throw new DescriptorException(
                  file,
                  line,
                  column,
                  open.isEmpty() ? ROOT : open.peek().name,
                  "entity references are not allowed");
          case XMLStreamConstants.START_ELEMENT -> {
            String local = r.getLocalName();
            String ns = r.getNamespaceURI();
            if (ns != null && !ns.isEmpty() && !NAMESPACE.equals(ns)) {
              throw new DescriptorException(
                  file,
                  line,
                  column,
                  local,
                  "element is in namespace " + ns + "; expected " + NAMESPACE + " or none");
            }
            XmlNode node = new XmlNode(local, line, column);
            for (int i = 0; i < r.getAttributeCount(); i++) {
              String ans = r.getAttributeNamespace(i);
              if (ans == null || ans.isEmpty()) {
                node.attributes.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
              }
            }
            if (open.isEmpty()) {
              if (root != null) {
                throw new DescriptorException(
                    file, line, column, local, "more than one root element");
              }
              if (!ROOT.equals(local)) {
                throw new DescriptorException(
                    file,
                    line,
                    column,
                    local,
                    "wrong root element <" + local + ">; expected <" + ROOT + ">");
              }
              root = node;
            } else {
              open.peek().children.add(node);
            }
            open.push(node);
          }
          case XMLStreamConstants.END_ELEMENT -> open.pop();
          case XMLStreamConstants.CHARACTERS,
              XMLStreamConstants.CDATA,
              XMLStreamConstants.SPACE -> {
            String t = r.getText();
            if (!open.isEmpty() && event != XMLStreamConstants.SPACE) {
              XmlNode n = open.peek();
              if (n.text.length() == 0 && !t.isBlank()) {
                n.textLine = line;
                n.textColumn = column;
              }
              n.text.append(t);
            }
            for (int i = 0; i < t.length(); i++) {
              if (t.charAt(i) == '\n') {
                line++;
                column = 1;
              } else {
                column++;
              }
            }
            afterText = true;
          }
          default -> {}
        }
      }
    } catch (XMLStreamException e) {
      Location loc = e.getLocation();
      int l = loc != null && loc.getLineNumber() > 0 ? loc.getLineNumber() : line;
      int c = loc != null && loc.getColumnNumber() > 0 ? loc.getColumnNumber() : column;
      throw new DescriptorException(
          file,
          l,
          c,
          open.isEmpty() ? ROOT : open.peek().name,
          "malformed XML: " + cleanMessage(e),
          e);
    } finally {
      if (r != null) {
        try {
          r.close();
        } catch (XMLStreamException ignored) {
          // nothing useful to do
        }
      }
    }
    if (root == null) {
      throw new DescriptorException(file, line, column, ROOT, "no root element");
    }
    return root;
  }

  /**
   * Decodes the bytes ourselves (BOM, then the XML declaration's encoding, default UTF-8) so that
   * encoding errors become located {@link DescriptorException}s; the JDK's reader would also print
   * them to standard error.
   */
  private String decode(InputStream in) throws DescriptorException {
    byte[] bytes;
    try {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (IOException e) {
      throw new DescriptorException(
          file, 0, 0, ROOT, "cannot read input: " + e.getClass().getSimpleName(), e);
    }
    if (bytes.length > MAX_BYTES) {
      throw new DescriptorException(
          file, 0, 0, ROOT, "file is larger than " + MAX_BYTES + " bytes");
    }
    int skip = 0;
    Charset charset;
    if (bytes.length >= 3
        && (bytes[0] & 0xFF) == 0xEF
        && (bytes[1] & 0xFF) == 0xBB
        && (bytes[2] & 0xFF) == 0xBF) {
      skip = 3;
      charset = StandardCharsets.UTF_8;
    } else if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
      skip = 2;
      charset = StandardCharsets.UTF_16BE;
    } else if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
      skip = 2;
      charset = StandardCharsets.UTF_16LE;
    } else {
      charset = declaredCharset(bytes);
    }
    CharsetDecoder decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer src = ByteBuffer.wrap(bytes, skip, bytes.length - skip);
    CharBuffer out = CharBuffer.allocate((int) ((bytes.length + 16) * 1.2) + 16);
    CoderResult result = decoder.decode(src, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError() || result.isOverflow()) {
      out.flip();
      int line = 1;
      int column = 1;
      while (out.hasRemaining()) {
        if (out.get() == '\n') {
          line++;
          column = 1;
        } else {
          column++;
        }
      }
      throw new DescriptorException(
          file,
          line,
          column,
          ROOT,
          "invalid " + charset.name() + " byte sequence at byte offset " + src.position());
    }
    out.flip();
    return out.toString();
  }

  private Charset declaredCharset(byte[] bytes) throws DescriptorException {
    String head = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.ISO_8859_1);
    if (head.startsWith("<?xml")) {
      int end = head.indexOf("?>");
      Matcher m = ENCODING.matcher(end < 0 ? head : head.substring(0, end));
      if (m.find()) {
        String name = m.group(2);
        try {
          return Charset.forName(name);
        } catch (IllegalArgumentException e) {
          throw new DescriptorException(
              file, 1, 1, ROOT, "unsupported encoding \"" + name + "\" in the XML declaration");
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  private static void trySet(XMLInputFactory f, String property, Object value) {
    try {
      f.setProperty(property, value);
    } catch (IllegalArgumentException ignored) {
      // the implementation does not know the property; DTDs are refused anyway
    }
  }

  private static String cleanMessage(XMLStreamException e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int idx = m.indexOf("Message:");
    if (idx >= 0) {
      m = m.substring(idx + "Message:".length());
    }
    return m.replaceAll("\\s+", " ").strip();
  }
}
