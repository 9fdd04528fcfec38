package dev.aerun.appengine.descriptor;

import dev.aerun.appengine.descriptor.AppEngineWebXml.AdminConsolePage;
import dev.aerun.appengine.descriptor.AppEngineWebXml.ApiConfig;
import dev.aerun.appengine.descriptor.AppEngineWebXml.AutomaticScaling;
import dev.aerun.appengine.descriptor.AppEngineWebXml.BasicScaling;
import dev.aerun.appengine.descriptor.AppEngineWebXml.ManualScaling;
import dev.aerun.appengine.descriptor.AppEngineWebXml.Network;
import dev.aerun.appengine.descriptor.AppEngineWebXml.Pagespeed;
import dev.aerun.appengine.descriptor.AppEngineWebXml.Permission;
import dev.aerun.appengine.descriptor.AppEngineWebXml.PrioritySpecifier;
import dev.aerun.appengine.descriptor.AppEngineWebXml.Staging;
import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticErrorHandler;
import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticInclude;
import dev.aerun.appengine.descriptor.AppEngineWebXml.UrlStreamHandler;
import dev.aerun.appengine.descriptor.AppEngineWebXml.VpcAccessConnector;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

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
 * <p>DTDs and external entities are refused (no XXE). Every failure, for any input bytes, is a
 * {@link DescriptorException}; no unchecked exception escapes. Positions are those of the start of
 * the offending element's tag where the XML parser can tell, else just after it. Thread-safe:
 * static methods with no shared state.
 */
public final class AppEngineWebXmlParser {
  /** The reference namespace of {@code appengine-web.xml}. */
  public static final String NAMESPACE = "http://appengine.google.com/ns/1.0";

  private static final String ROOT = "appengine-web-app";
  private static final int MAX_BYTES = 16 * 1024 * 1024;
  private static final Pattern ENCODING =
      Pattern.compile("encoding\\s*=\\s*(['\"])([A-Za-z0-9._:-]+)\\1");
  private static final Pattern LATENCY = Pattern.compile("\\d+(\\.\\d+)?(ms|s)");

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
    Node root;
    try {
      root = new TreeReader(file).read(in);
    } catch (DescriptorException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      throw new DescriptorException(
          file, 0, 0, ROOT, "unreadable XML: " + e.getClass().getSimpleName(), e);
    }
    try {
      return new Interpreter(file).root(root);
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

  // --- XML to a small tree with positions ------------------------------------------------------

  /** One element with its position, attributes (no-namespace ones only) and children. */
  private static final class Node {
    final String name;
    final int line;
    final int column;
    final Map<String, String> attributes = new LinkedHashMap<>();
    final List<Node> children = new ArrayList<>();
    final StringBuilder text = new StringBuilder();
    int textLine;
    int textColumn;

    Node(String name, int line, int column) {
      this.name = name;
      this.line = line;
      this.column = column;
    }

    String text() {
      return text.toString().strip();
    }
  }

  private static final class TreeReader {
    private final String file;

    TreeReader(String file) {
      this.file = file;
    }

    Node read(InputStream in) throws DescriptorException {
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
      Deque<Node> open = new ArrayDeque<>();
      Node root = null;
      XMLStreamReader r = null;
      int line = 1;
      int column = 1;
      try {
        r = factory.createXMLStreamReader(new StringReader(decode(in)));
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
              throw new DescriptorException(
                  file,
                  at != null && at.getLineNumber() > 0 ? at.getLineNumber() : line,
                  at != null && at.getLineNumber() > 0 ? Math.max(1, at.getColumnNumber()) : column,
                  ROOT,
                  "DOCTYPE declarations are not allowed");
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
              Node node = new Node(local, line, column);
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
                Node n = open.peek();
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
     * encoding errors become located {@link DescriptorException}s; the JDK's reader would also
     * print them to standard error.
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

  // --- tree to model ---------------------------------------------------------------------------

  private enum Kind {
    STRING,
    BOOLEAN,
    UINT,
    POSITIVE_INT,
    DOUBLE
  }

  private static final Set<String> TOP_LEVEL =
      Set.of(
          "application",
          "version",
          "runtime",
          "module",
          "service",
          "instance-class",
          "service-account",
          "automatic-scaling",
          "manual-scaling",
          "basic-scaling",
          "static-files",
          "resource-files",
          "system-properties",
          "vm-settings",
          "beta-settings",
          "vm-health-check",
          "health-check",
          "liveness-check",
          "readiness-check",
          "resources",
          "network",
          "env-variables",
          "build-env-variables",
          "ssl-enabled",
          "sessions-enabled",
          "async-session-persistence",
          "user-permissions",
          "public-root",
          "inbound-services",
          "app-engine-bundled-services",
          "precompilation-enabled",
          "admin-console",
          "static-error-handlers",
          "warmup-requests-enabled",
          "threadsafe",
          "app-engine-apis",
          "auto-id-policy",
          "code-lock",
          "vm",
          "env",
          "entrypoint",
          "runtime-channel",
          "class-loader-config",
          "url-stream-handler",
          "use-google-connector-j",
          "api-config",
          "staging",
          "vpc-access-connector",
          "default-expiration",
          "pagespeed");

  private static final Map<String, Kind> HEALTH_CHECK =
      Map.of(
          "enable-health-check", Kind.BOOLEAN,
          "check-interval-sec", Kind.UINT,
          "timeout-sec", Kind.UINT,
          "unhealthy-threshold", Kind.UINT,
          "healthy-threshold", Kind.UINT,
          "restart-threshold", Kind.UINT,
          "host", Kind.STRING);
  private static final Map<String, Kind> LIVENESS_CHECK =
      Map.of(
          "path", Kind.STRING,
          "check-interval-sec", Kind.UINT,
          "timeout-sec", Kind.UINT,
          "failure-threshold", Kind.UINT,
          "success-threshold", Kind.UINT,
          "initial-delay-sec", Kind.UINT,
          "host", Kind.STRING);
  private static final Map<String, Kind> READINESS_CHECK =
      Map.of(
          "path", Kind.STRING,
          "check-interval-sec", Kind.UINT,
          "timeout-sec", Kind.UINT,
          "failure-threshold", Kind.UINT,
          "success-threshold", Kind.UINT,
          "app-start-timeout-sec", Kind.UINT,
          "host", Kind.STRING);
  private static final Map<String, Kind> RESOURCES =
      Map.of("cpu", Kind.DOUBLE, "memory-gb", Kind.DOUBLE, "disk-size-gb", Kind.UINT);
  private static final Map<String, Kind> CPU_UTILIZATION =
      Map.of("target-utilization", Kind.DOUBLE, "aggregation-window-length-sec", Kind.POSITIVE_INT);
  private static final Map<String, Kind> CUSTOM_METRIC =
      Map.of(
          "metric-name", Kind.STRING,
          "target-type", Kind.STRING,
          "target-utilization", Kind.DOUBLE,
          "single-instance-assignment", Kind.DOUBLE,
          "filter", Kind.STRING);
  private static final Set<String> FLEX_TARGETS =
      Set.of(
          "target-network-sent-bytes-per-sec",
          "target-network-sent-packets-per-sec",
          "target-network-received-bytes-per-sec",
          "target-network-received-packets-per-sec",
          "target-disk-write-bytes-per-sec",
          "target-disk-write-ops-per-sec",
          "target-disk-read-bytes-per-sec",
          "target-disk-read-ops-per-sec",
          "target-request-count-per-sec",
          "target-concurrent-requests");
  private static final Set<String> ERROR_CODES = Set.of("over_quota", "dos_api_denial", "timeout");
  private static final Set<String> EGRESS = Set.of("all-traffic", "private-ip-ranges");

  private static final class Interpreter {
    private final String file;

    Interpreter(String file) {
      this.file = file;
    }

    private DescriptorException fail(Node n, String problem) {
      return new DescriptorException(file, n.line, n.column, n.name, problem);
    }

    AppEngineWebXml root(Node root) throws DescriptorException {
      noAttributes(root);
      noText(root);
      AppEngineWebXml.Builder b = new AppEngineWebXml.Builder();
      Set<String> seen = new HashSet<>();
      Node serviceOrModule = null;
      Node scalingNode = null;
      Node healthNode = null;
      for (Node n : root.children) {
        if (!TOP_LEVEL.contains(n.name)) {
          throw fail(n, "unknown element <" + n.name + "> in <" + ROOT + ">");
        }
        if (!seen.add(n.name)) {
          throw fail(n, "<" + n.name + "> appears more than once");
        }
        switch (n.name) {
          case "application" -> b.application = string(n);
          case "version" -> b.version = string(n);
          case "service", "module" -> {
            if (serviceOrModule != null) {
              throw fail(
                  n,
                  "both <service> and <module> are given; use only <service> (<module> is its"
                      + " old name)");
            }
            serviceOrModule = n;
            b.service = string(n);
          }
          case "runtime" -> b.runtime = string(n);
          case "instance-class" -> b.instanceClass = string(n);
          case "service-account" -> b.serviceAccount = string(n);
          case "public-root" -> b.publicRoot = string(n);
          case "auto-id-policy" -> {
            String v = string(n);
            if (!v.equals("default") && !v.equals("legacy")) {
              throw fail(n, "invalid value \"" + v + "\"; expected default or legacy");
            }
            b.autoIdPolicy = v;
          }
          case "env" -> b.env = string(n);
          case "entrypoint" -> b.entrypoint = string(n);
          case "runtime-channel" -> b.runtimeChannel = string(n);
          case "system-properties" -> nameValueList(n, "property", b.systemProperties);
          case "env-variables" -> {
            nameValueList(n, "env-var", b.envVariables);
            checkNotReserved(n);
          }
          case "build-env-variables" -> nameValueList(n, "build-env-var", b.buildEnvVariables);
          case "beta-settings" -> nameValueList(n, "setting", b.betaSettings);
          case "vm-settings" -> nameValueList(n, "setting", b.vmSettings);
          case "static-files" -> staticFiles(n, b);
          case "resource-files" -> resourceFiles(n, b);
          case "default-expiration" -> b.defaultExpirationSeconds = expiration(n, string(n));
          case "sessions-enabled" -> b.sessionsEnabled = bool(n);
          case "async-session-persistence" -> {
            leafNoText(n);
            allowAttributes(n, "enabled", "queue-name");
            b.asyncEnabled = parseBool(n, requiredAttr(n, "enabled"), "attribute enabled");
            b.asyncQueueName = n.attributes.get("queue-name");
          }
          case "threadsafe" -> b.threadsafe = bool(n);
          case "app-engine-apis" -> b.appEngineApis = bool(n);
          case "ssl-enabled" -> b.sslEnabled = bool(n);
          case "url-stream-handler" -> {
            String v = string(n);
            b.urlStreamHandler =
                switch (v) {
                  case "native" -> UrlStreamHandler.NATIVE;
                  case "urlfetch" -> UrlStreamHandler.URLFETCH;
                  default ->
                      throw fail(n, "invalid value \"" + v + "\"; expected native or urlfetch");
                };
          }
          case "inbound-services" -> {
            Set<String> services = new LinkedHashSet<>();
            for (Node c : children(n, Set.of("service"))) {
              String v = string(c);
              if (v.isEmpty()) {
                throw fail(c, "empty service name");
              }
              services.add(v);
            }
            b.inboundServices.addAll(services);
          }
          case "app-engine-bundled-services" -> {
            for (Node c : children(n, Set.of("api"))) {
              b.appEngineBundledServices.add(string(c));
            }
          }
          case "warmup-requests-enabled" -> b.warmupRequestsEnabled = bool(n);
          case "precompilation-enabled" -> b.precompilationEnabled = bool(n);
          case "code-lock" -> b.codeLock = bool(n);
          case "vm" -> b.vm = bool(n);
          case "use-google-connector-j" -> b.useGoogleConnectorJ = bool(n);
          case "automatic-scaling", "basic-scaling", "manual-scaling" -> {
            if (scalingNode != null) {
              throw fail(
                  n,
                  "only one scaling block is allowed, but <"
                      + scalingNode.name
                      + "> was already given at line "
                      + scalingNode.line);
            }
            scalingNode = n;
            b.scaling =
                switch (n.name) {
                  case "automatic-scaling" -> automaticScaling(n);
                  case "basic-scaling" -> basicScaling(n);
                  default -> manualScaling(n);
                };
          }
          case "vpc-access-connector" -> {
            Map<String, Node> c = singles(n, Set.of("name", "egress-setting"));
            if (!c.containsKey("name")) {
              throw fail(n, "missing required child <name>");
            }
            Optional<String> egress = Optional.empty();
            if (c.containsKey("egress-setting")) {
              Node e = c.get("egress-setting");
              String v = string(e);
              if (!EGRESS.contains(v)) {
                throw fail(
                    e, "invalid value \"" + v + "\"; expected all-traffic or private-ip-ranges");
              }
              egress = Optional.of(v);
            }
            b.vpcAccessConnector = new VpcAccessConnector(string(c.get("name")), egress);
          }
          case "class-loader-config" -> {
            for (Node c : children(n, Set.of("priority-specifier"))) {
              leafNoText(c);
              allowAttributes(c, "filename", "priority");
              String filename = requiredAttr(c, "filename");
              Optional<Double> priority = Optional.empty();
              if (c.attributes.containsKey("priority")) {
                priority =
                    Optional.of(parseDouble(c, c.attributes.get("priority"), "attribute priority"));
              }
              b.classLoaderConfig.add(new PrioritySpecifier(filename, priority));
            }
          }
          case "staging" -> b.staging = staging(n);
          case "admin-console" -> {
            for (Node c : children(n, Set.of("page"))) {
              leafNoText(c);
              allowAttributes(c, "name", "url");
              b.adminConsolePages.add(
                  new AdminConsolePage(requiredAttr(c, "name"), requiredAttr(c, "url")));
            }
          }
          case "static-error-handlers" -> {
            for (Node c : children(n, Set.of("handler"))) {
              leafNoText(c);
              allowAttributes(c, "file", "error-code");
              String code = c.attributes.get("error-code");
              if (code != null && !ERROR_CODES.contains(code)) {
                throw fail(
                    c,
                    "invalid error-code \""
                        + code
                        + "\"; expected over_quota, dos_api_denial or timeout");
              }
              String file = requiredAttr(c, "file");
              if (isPrivatePath(file)) {
                throw fail(
                    c,
                    "file \""
                        + file
                        + "\" is under WEB-INF or META-INF, which is never served;"
                        + " a static error handler must be a public file of the app");
              }
              b.staticErrorHandlers.add(new StaticErrorHandler(file, Optional.ofNullable(code)));
            }
          }
          case "api-config" -> {
            allowAttributes(n, "servlet-class", "url-pattern");
            List<String> ids = new ArrayList<>();
            for (Node c : children(n, Set.of("endpoint-servlet-mapping-id"))) {
              ids.add(string(c));
            }
            b.apiConfig =
                new ApiConfig(
                    requiredAttr(n, "servlet-class"), requiredAttr(n, "url-pattern"), ids);
          }
          case "pagespeed" -> {
            Map<String, List<String>> lists = new LinkedHashMap<>();
            for (String s :
                List.of(
                    "url-blacklist",
                    "domain-to-rewrite",
                    "enabled-rewriter",
                    "disabled-rewriter")) {
              lists.put(s, new ArrayList<>());
            }
            for (Node c : children(n, lists.keySet())) {
              lists.get(c.name).add(string(c));
            }
            b.pagespeed =
                new Pagespeed(
                    lists.get("url-blacklist"),
                    lists.get("domain-to-rewrite"),
                    lists.get("enabled-rewriter"),
                    lists.get("disabled-rewriter"));
          }
          case "health-check", "vm-health-check" -> {
            if (healthNode != null) {
              throw fail(n, "both <health-check> and <vm-health-check> are given");
            }
            healthNode = n;
            b.healthCheck.putAll(typedBlock(n, HEALTH_CHECK));
          }
          case "liveness-check" -> b.livenessCheck.putAll(typedBlock(n, LIVENESS_CHECK));
          case "readiness-check" -> b.readinessCheck.putAll(typedBlock(n, READINESS_CHECK));
          case "resources" -> b.resources.putAll(typedBlock(n, RESOURCES));
          case "network" -> b.network = network(n);
          case "user-permissions" -> {
            for (Node c : children(n, Set.of("permission"))) {
              leafNoText(c);
              allowAttributes(c, "class", "name", "actions");
              b.userPermissions.add(
                  new Permission(
                      requiredAttr(c, "class"),
                      requiredAttr(c, "name"),
                      Optional.ofNullable(c.attributes.get("actions"))));
            }
          }
          default -> throw fail(n, "unknown element <" + n.name + "> in <" + ROOT + ">");
        }
      }
      return b.build();
    }

    private void staticFiles(Node n, AppEngineWebXml.Builder b) throws DescriptorException {
      b.staticFilesDeclared = true;
      for (Node c : children(n, Set.of("include", "exclude"))) {
        if (c.name.equals("exclude")) {
          leafNoText(c);
          allowAttributes(c, "path");
          b.staticExcludes.add(requiredAttr(c, "path"));
          continue;
        }
        allowAttributes(c, "path", "expiration");
        String path = requiredAttr(c, "path");
        Optional<Long> exp = Optional.empty();
        if (c.attributes.containsKey("expiration")) {
          exp = Optional.of(expiration(c, c.attributes.get("expiration")));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Set<String> lower = new HashSet<>();
        for (Node h : children(c, Set.of("http-header"))) {
          leafNoText(h);
          allowAttributes(h, "name", "value");
          String name = requiredAttr(h, "name");
          if (name.isBlank()) {
            throw fail(h, "attribute name must not be empty");
          }
          if (!lower.add(name.toLowerCase(Locale.ROOT))) {
            throw fail(
                h,
                "duplicate http-header \""
                    + name
                    + "\" in <include path=\""
                    + path
                    + "\"> (names are case-insensitive)");
          }
          headers.put(name, requiredAttr(h, "value"));
        }
        b.staticIncludes.add(new StaticInclude(path, exp, headers));
      }
    }

    private void resourceFiles(Node n, AppEngineWebXml.Builder b) throws DescriptorException {
      for (Node c : children(n, Set.of("include", "exclude"))) {
        leafNoText(c);
        allowAttributes(c, "path");
        (c.name.equals("include") ? b.resourceIncludes : b.resourceExcludes)
            .add(requiredAttr(c, "path"));
      }
    }

    private AutomaticScaling automaticScaling(Node n) throws DescriptorException {
      Set<String> allowed = new HashSet<>(FLEX_TARGETS);
      allowed.addAll(
          List.of(
              "min-pending-latency",
              "max-pending-latency",
              "min-idle-instances",
              "max-idle-instances",
              "min-instances",
              "max-instances",
              "target-cpu-utilization",
              "target-throughput-utilization",
              "max-concurrent-requests",
              "min-num-instances",
              "max-num-instances",
              "cool-down-period-sec",
              "cpu-utilization",
              "custom-metrics"));
      Map<String, Node> c = singles(n, allowed);
      Map<String, Long> targets = new LinkedHashMap<>();
      for (Node t : n.children) {
        if (FLEX_TARGETS.contains(t.name)) {
          targets.put(t.name, (long) integer(t, 1));
        }
      }
      Map<String, String> cpu = new LinkedHashMap<>();
      if (c.containsKey("cpu-utilization")) {
        cpu.putAll(typedBlock(c.get("cpu-utilization"), CPU_UTILIZATION));
      }
      List<Map<String, String>> metrics = new ArrayList<>();
      if (c.containsKey("custom-metrics")) {
        for (Node m : children(c.get("custom-metrics"), Set.of("custom-metric"))) {
          metrics.add(typedBlock(m, CUSTOM_METRIC));
        }
      }
      return new AutomaticScaling(
          idleInstances(c.get("min-idle-instances")),
          idleInstances(c.get("max-idle-instances")),
          latency(c.get("min-pending-latency")),
          latency(c.get("max-pending-latency")),
          optInt(c.get("max-concurrent-requests"), 1),
          optInt(c.get("min-instances"), 0),
          optInt(c.get("max-instances"), 1),
          utilization(c.get("target-cpu-utilization")),
          utilization(c.get("target-throughput-utilization")),
          optInt(c.get("min-num-instances"), 1),
          optInt(c.get("max-num-instances"), 1),
          optInt(c.get("cool-down-period-sec"), 1),
          cpu,
          targets,
          metrics);
    }

    private BasicScaling basicScaling(Node n) throws DescriptorException {
      Map<String, Node> c = singles(n, Set.of("max-instances", "idle-timeout"));
      if (!c.containsKey("max-instances")) {
        throw fail(n, "missing required child <max-instances>");
      }
      Optional<Long> idle = Optional.empty();
      if (c.containsKey("idle-timeout")) {
        Node t = c.get("idle-timeout");
        idle = Optional.of(expiration(t, string(t)));
      }
      return new BasicScaling(integer(c.get("max-instances"), 1), idle);
    }

    private ManualScaling manualScaling(Node n) throws DescriptorException {
      Map<String, Node> c = singles(n, Set.of("instances"));
      if (!c.containsKey("instances")) {
        throw fail(n, "missing required child <instances>");
      }
      return new ManualScaling(integer(c.get("instances"), 1));
    }

    private Staging staging(Node n) throws DescriptorException {
      Map<String, Node> c =
          singles(
              n,
              Set.of(
                  "enable-jar-splitting",
                  "jar-splitting-excludes",
                  "disable-jar-jsps",
                  "enable-jar-classes",
                  "delete-jsps",
                  "compile-encoding"));
      return new Staging(
          optBool(c.get("enable-jar-splitting")),
          optString(c.get("jar-splitting-excludes")),
          optBool(c.get("disable-jar-jsps")),
          optBool(c.get("enable-jar-classes")),
          optBool(c.get("delete-jsps")),
          optString(c.get("compile-encoding")));
    }

    private Network network(Node n) throws DescriptorException {
      List<String> ports = new ArrayList<>();
      Map<String, String> settings = new LinkedHashMap<>();
      Set<String> seen = new HashSet<>();
      for (Node c :
          children(
              n,
              Set.of(
                  "forwarded-port",
                  "instance-tag",
                  "name",
                  "subnetwork-name",
                  "session-affinity"))) {
        if (c.name.equals("forwarded-port")) {
          ports.add(string(c));
          continue;
        }
        if (!seen.add(c.name)) {
          throw fail(c, "<" + c.name + "> appears more than once in <network>");
        }
        settings.put(
            c.name, c.name.equals("session-affinity") ? String.valueOf(bool(c)) : string(c));
      }
      return new Network(ports, settings);
    }

    // --- small helpers ---

    private List<Node> children(Node n, Set<String> allowed) throws DescriptorException {
      noText(n);
      for (Node c : n.children) {
        if (!allowed.contains(c.name)) {
          throw fail(
              c,
              "unknown element <"
                  + c.name
                  + "> in <"
                  + n.name
                  + ">; expected "
                  + String.join(", ", allowed.stream().sorted().map(s -> "<" + s + ">").toList()));
        }
      }
      return n.children;
    }

    /** Children that may each appear at most once. */
    private Map<String, Node> singles(Node n, Set<String> allowed) throws DescriptorException {
      noAttributes(n);
      Map<String, Node> out = new LinkedHashMap<>();
      for (Node c : children(n, allowed)) {
        if (out.put(c.name, c) != null) {
          throw fail(c, "<" + c.name + "> appears more than once in <" + n.name + ">");
        }
      }
      return out;
    }

    private Map<String, String> typedBlock(Node n, Map<String, Kind> spec)
        throws DescriptorException {
      Map<String, String> out = new LinkedHashMap<>();
      for (Node c : singles(n, spec.keySet()).values()) {
        String v =
            switch (spec.get(c.name)) {
              case STRING -> string(c);
              case BOOLEAN -> String.valueOf(bool(c));
              case UINT -> String.valueOf(integer(c, 0));
              case POSITIVE_INT -> String.valueOf(integer(c, 1));
              case DOUBLE -> String.valueOf(parseDouble(c, string(c), "value"));
            };
        out.put(c.name, v);
      }
      return out;
    }

    private void nameValueList(Node n, String child, Map<String, String> into)
        throws DescriptorException {
      noAttributes(n);
      for (Node c : children(n, Set.of(child))) {
        leafNoText(c);
        allowAttributes(c, "name", "value");
        String name = requiredAttr(c, "name");
        if (name.isBlank()) {
          throw fail(c, "attribute name must not be empty");
        }
        into.put(name, requiredAttr(c, "value"));
      }
    }

    /**
     * The platform sets {@code PORT}, {@code GAE_*} and {@code GOOGLE_CLOUD_PROJECT} itself, and
     * the launcher reads {@code AERUN_*} before the descriptor: none can come from here.
     */
    private void checkNotReserved(Node envVariables) throws DescriptorException {
      for (Node c : envVariables.children) {
        String name = c.attributes.get("name");
        if (name != null && AppEngineWebXml.isReservedEnvVariable(name)) {
          throw fail(
              c,
              "environment variable "
                  + name
                  + " is reserved: the platform or the launcher sets it, not appengine-web.xml");
        }
      }
    }

    private String string(Node n) throws DescriptorException {
      noAttributes(n);
      if (!n.children.isEmpty()) {
        Node c = n.children.get(0);
        throw fail(c, "unexpected element <" + c.name + "> inside <" + n.name + ">");
      }
      return n.text();
    }

    private Optional<String> optString(Node n) throws DescriptorException {
      return n == null ? Optional.empty() : Optional.of(string(n));
    }

    private boolean bool(Node n) throws DescriptorException {
      return parseBool(n, string(n), "value");
    }

    private Optional<Boolean> optBool(Node n) throws DescriptorException {
      return n == null ? Optional.empty() : Optional.of(bool(n));
    }

    private boolean parseBool(Node n, String v, String what) throws DescriptorException {
      String t = v.strip();
      if (t.equalsIgnoreCase("true") || t.equals("1")) {
        return true;
      }
      if (t.equalsIgnoreCase("false") || t.equals("0")) {
        return false;
      }
      throw fail(n, "invalid boolean " + what + " \"" + v + "\"; expected true or false");
    }

    private int integer(Node n, int min) throws DescriptorException {
      String v = string(n);
      int i;
      try {
        i = Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw fail(n, "invalid integer \"" + v + "\"");
      }
      if (i < min) {
        throw fail(n, "value " + i + " must be at least " + min);
      }
      return i;
    }

    private Optional<Integer> optInt(Node n, int min) throws DescriptorException {
      return n == null ? Optional.empty() : Optional.of(integer(n, min));
    }

    private double parseDouble(Node n, String v, String what) throws DescriptorException {
      try {
        double d = Double.parseDouble(v.strip());
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // fall through
      }
      throw fail(n, "invalid number " + what + " \"" + v + "\"");
    }

    private Optional<Double> utilization(Node n) throws DescriptorException {
      if (n == null) {
        return Optional.empty();
      }
      double d = parseDouble(n, string(n), "value");
      if (d <= 0 || d > 1) {
        throw fail(n, "value " + d + " must be greater than 0 and at most 1");
      }
      return Optional.of(d);
    }

    private Optional<String> idleInstances(Node n) throws DescriptorException {
      if (n == null) {
        return Optional.empty();
      }
      String v = string(n);
      if (!v.equals("automatic")) {
        integer(n, 0);
      }
      return Optional.of(v);
    }

    private Optional<String> latency(Node n) throws DescriptorException {
      if (n == null) {
        return Optional.empty();
      }
      String v = string(n);
      if (!v.equals("automatic") && !LATENCY.matcher(v).matches()) {
        throw fail(n, "invalid latency \"" + v + "\"; expected automatic or e.g. 30ms or 1.5s");
      }
      return Optional.of(v);
    }

    /** A path with a {@code WEB-INF} or {@code META-INF} segment, any case, either separator. */
    private static boolean isPrivatePath(String path) {
      for (String segment : path.split("[/\\\\]")) {
        String lower = segment.trim().toLowerCase(Locale.ROOT);
        if (lower.equals("web-inf") || lower.equals("meta-inf")) {
          return true;
        }
      }
      return false;
    }

    private long expiration(Node n, String v) throws DescriptorException {
      try {
        return Expiration.parseSeconds(v);
      } catch (IllegalArgumentException e) {
        throw fail(n, e.getMessage());
      }
    }

    private String requiredAttr(Node n, String name) throws DescriptorException {
      String v = n.attributes.get(name);
      if (v == null) {
        throw fail(n, "missing required attribute " + name);
      }
      return v;
    }

    private void allowAttributes(Node n, String... names) throws DescriptorException {
      Set<String> ok = Set.of(names);
      for (String a : n.attributes.keySet()) {
        if (!ok.contains(a)) {
          throw fail(n, "unknown attribute " + a + " on <" + n.name + ">");
        }
      }
    }

    private void noAttributes(Node n) throws DescriptorException {
      allowAttributes(n);
    }

    private void noText(Node n) throws DescriptorException {
      if (!n.text().isEmpty()) {
        throw new DescriptorException(
            file,
            n.textLine > 0 ? n.textLine : n.line,
            n.textLine > 0 ? n.textColumn : n.column,
            n.name,
            "unexpected text \"" + abbreviate(n.text()) + "\" inside <" + n.name + ">");
      }
    }

    private void leafNoText(Node n) throws DescriptorException {
      if (!n.children.isEmpty()) {
        Node c = n.children.get(0);
        throw fail(c, "unexpected element <" + c.name + "> inside <" + n.name + ">");
      }
      noText(n);
    }

    private static String abbreviate(String s) {
      String one = s.replaceAll("\\s+", " ");
      return one.length() > 40 ? one.substring(0, 40) + "..." : one;
    }
  }
}
