package dev.aerun.appengine.descriptor;

import static dev.aerun.appengine.descriptor.AppEngineWebXmlParser.ROOT;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the root {@code <appengine-web-app>} element: the top-level elements and the small
 * sections, handing the scaling blocks and the file lists to their own readers.
 */
final class TopLevelReader extends ElementReader {
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
          "source-language",
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
  private static final Set<String> EGRESS = Set.of("all-traffic", "private-ip-ranges");

  /**
   * The longest {@code NAME=value} a process environment passes on (Linux's limit for one string,
   * {@code MAX_ARG_STRLEN}); a longer one would make the relaunch fail after the descriptor was
   * accepted.
   */
  static final int MAX_ENV_ENTRY_CHARS = 128 * 1024 - 1;

  private final ScalingReader scaling;
  private final FilesReader files;

  TopLevelReader(String file, List<String> warnings) {
    super(file, warnings);
    this.scaling = new ScalingReader(file, warnings);
    this.files = new FilesReader(file, warnings);
  }

  AppEngineWebXml root(XmlNode root) throws DescriptorException {
    noAttributes(root);
    noText(root);
    DescriptorBuilder b = new DescriptorBuilder();
    Set<String> seen = new HashSet<>();
    XmlNode serviceOrModule = null;
    XmlNode scalingNode = null;
    XmlNode healthNode = null;
    for (XmlNode n : root.children) {
      if (!TOP_LEVEL.contains(n.name)) {
        throw fail(n, "unknown element <" + n.name + "> in <" + ROOT + ">");
      }
      if (!seen.add(n.name)) {
        throw fail(n, "<" + n.name + "> appears more than once");
      }
      switch (n.name) {
        case "application" -> b.application = identity(n);
        case "version" -> b.version = identity(n);
        case "service", "module" -> {
          if (serviceOrModule != null) {
            throw fail(
                n,
                "both <service> and <module> are given; use only <service> (<module> is its"
                    + " old name)");
          }
          serviceOrModule = n;
          b.service = identity(n);
        }
        case "runtime" -> b.runtime = identity(n);
        case "instance-class" -> b.instanceClass = string(n);
        case "service-account" -> b.serviceAccount = string(n);
        case "public-root" -> b.publicRoot = publicRoot(n);
        case "auto-id-policy" -> {
          // A Datastore setting the platform types as a string; nothing here uses it.
          String v = string(n);
          if (!unresolvedPlaceholder(n, v)) {
            if (!v.equals("default") && !v.equals("legacy")) {
              warn(n, "unknown value \"" + abbreviate(v) + "\" (default or legacy) is ignored");
            }
            b.autoIdPolicy = v;
          }
        }
        case "source-language" -> {
          string(n);
          warn(n, "<source-language> is a deployment tool's setting; it is ignored");
        }
        case "env" -> b.env = string(n);
        case "entrypoint" -> b.entrypoint = string(n);
        case "runtime-channel" -> b.runtimeChannel = string(n);
        case "system-properties" -> {
          nameValueList(n, "property", b.systemProperties);
          for (XmlNode c : n.children) {
            b.systemPropertyLocations.put(
                c.attributes.get("name"),
                DescriptorException.format(file, c.line, c.column, c.name, "").strip());
          }
          warnAboutMisspelledSwitches(n);
        }
        case "env-variables" -> envVariables(n, b);
        case "build-env-variables" -> nameValueList(n, "build-env-var", b.buildEnvVariables);
        case "beta-settings" -> nameValueList(n, "setting", b.betaSettings);
        case "vm-settings" -> nameValueList(n, "setting", b.vmSettings);
        case "static-files" -> files.staticFiles(n, b);
        case "resource-files" -> files.resourceFiles(n, b);
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
          for (XmlNode c : children(n, Set.of("service"))) {
            String v = string(c);
            if (v.isEmpty()) {
              throw fail(c, "empty service name");
            }
            services.add(v);
          }
          b.inboundServices.addAll(services);
        }
        case "app-engine-bundled-services" -> {
          for (XmlNode c : children(n, Set.of("api"))) {
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
          b.scaling = scaling.read(n);
        }
        case "vpc-access-connector" -> {
          Map<String, XmlNode> c = singles(n, Set.of("name", "egress-setting"));
          if (!c.containsKey("name")) {
            throw fail(n, "missing required child <name>");
          }
          Optional<String> egress = Optional.empty();
          if (c.containsKey("egress-setting")) {
            egress = egressSetting(c.get("egress-setting"));
          }
          b.vpcAccessConnector = new VpcAccessConnector(string(c.get("name")), egress);
        }
        case "class-loader-config" -> {
          for (XmlNode c : children(n, Set.of("priority-specifier"))) {
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
          for (XmlNode c : children(n, Set.of("page"))) {
            leafNoText(c);
            allowAttributes(c, "name", "url");
            b.adminConsolePages.add(
                new AdminConsolePage(requiredAttr(c, "name"), requiredAttr(c, "url")));
          }
        }
        case "static-error-handlers" -> files.staticErrorHandlers(n, b);
        case "api-config" -> {
          allowAttributes(n, "servlet-class", "url-pattern");
          List<String> ids = new ArrayList<>();
          for (XmlNode c : children(n, Set.of("endpoint-servlet-mapping-id"))) {
            ids.add(string(c));
          }
          b.apiConfig =
              new ApiConfig(requiredAttr(n, "servlet-class"), requiredAttr(n, "url-pattern"), ids);
        }
        case "pagespeed" -> {
          Map<String, List<String>> lists = new LinkedHashMap<>();
          for (String s :
              List.of(
                  "url-blacklist", "domain-to-rewrite", "enabled-rewriter", "disabled-rewriter")) {
            lists.put(s, new ArrayList<>());
          }
          for (XmlNode c : children(n, lists.keySet())) {
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
          for (XmlNode c : children(n, Set.of("permission"))) {
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
    b.warnings.addAll(warnings);
    return b.build();
  }

  private Staging staging(XmlNode n) throws DescriptorException {
    Map<String, XmlNode> c =
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

  private Network network(XmlNode n) throws DescriptorException {
    List<String> ports = new ArrayList<>();
    Map<String, String> settings = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (XmlNode c :
        children(
            n,
            Set.of(
                "forwarded-port", "instance-tag", "name", "subnetwork-name", "session-affinity"))) {
      if (c.name.equals("forwarded-port")) {
        ports.add(string(c));
        continue;
      }
      if (!seen.add(c.name)) {
        throw fail(c, "<" + c.name + "> appears more than once in <network>");
      }
      settings.put(c.name, c.name.equals("session-affinity") ? String.valueOf(bool(c)) : string(c));
    }
    return new Network(ports, settings);
  }

  /**
   * A string-typed identity element ({@code application}, {@code version}, {@code service}, {@code
   * runtime}): empty or an unresolved placeholder counts as absent, so the default applies.
   */
  private String identity(XmlNode n) throws DescriptorException {
    return stringUnlessPlaceholder(n).filter(v -> !v.isEmpty()).orElse(null);
  }

  /** {@code <public-root>}: a directory inside the app, never above it. */
  private String publicRoot(XmlNode n) throws DescriptorException {
    String v = string(n);
    String relative = v.replace('\\', '/').replaceFirst("^/+", "");
    int depth = 0;
    for (String part : relative.split("/")) {
      if (part.equals("..")) {
        depth--;
      } else if (!part.isEmpty() && !part.equals(".")) {
        depth++;
      }
      if (depth < 0) {
        throw fail(n, "\"" + abbreviate(v) + "\" is outside the app; name a directory inside it");
      }
    }
    return v;
  }

  /**
   * The platform's values, {@code all-traffic} and {@code private-ip-ranges}, also in the API's
   * spelling ({@code ALL_TRAFFIC}); the element is typed as a string, so anything else is accepted
   * with a warning and ignored.
   */
  private Optional<String> egressSetting(XmlNode e) throws DescriptorException {
    String v = string(e);
    String normal = v.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    if (EGRESS.contains(normal)) {
      return Optional.of(normal);
    }
    if (!unresolvedPlaceholder(e, v)) {
      warn(
          e,
          "unknown value \"" + abbreviate(v) + "\" (all-traffic or private-ip-ranges) is ignored");
    }
    return Optional.empty();
  }

  /**
   * {@code <env-variables>}: {@code AERUN_*} is the launcher's own and refused; names the platform
   * sets itself are accepted with a warning naming the variable (never its value); a name outside
   * {@code [A-Za-z_][A-Za-z0-9_]*} (what a shell, a {@code Dockerfile} and a Kubernetes manifest
   * all take) or an entry too long for a process environment is refused here rather than at the
   * relaunch or in what {@code stage} writes.
   */
  private void envVariables(XmlNode n, DescriptorBuilder b) throws DescriptorException {
    nameValueList(n, "env-var", b.envVariables);
    for (XmlNode c : n.children) {
      String name = c.attributes.get("name");
      String value = c.attributes.get("value");
      if (AppEngineWebXml.isReservedEnvVariable(name)) {
        throw fail(
            c,
            "environment variable "
                + name
                + " is reserved: the launcher reads it before the descriptor");
      }
      if (!isEnvName(name)) {
        throw fail(
            c,
            "environment variable name \""
                + printable(abbreviate(name))
                + "\" is not valid: use letters, digits and '_', not starting with a digit");
      }
      if (name.length() + 1 + value.length() > MAX_ENV_ENTRY_CHARS) {
        throw fail(
            c,
            "environment variable "
                + abbreviate(name)
                + " is too long to pass on: at most "
                + MAX_ENV_ENTRY_CHARS
                + " characters for NAME=value");
      }
      if (AppEngineWebXml.isPlatformEnvVariable(name)) {
        warn(
            c,
            "environment variable "
                + name
                + " is one the platform sets: the app sees the platform's value where there is"
                + " one; the runtime never takes its port, trust or ids from here");
      }
    }
  }

  /** {@code [A-Za-z_][A-Za-z0-9_]*}. */
  static boolean isEnvName(String name) {
    if (name.isEmpty() || (name.charAt(0) >= '0' && name.charAt(0) <= '9')) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** {@code text} with control characters written as {@code \\uXXXX}: one line, as typed. */
  private static String printable(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c < ' ' || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * A property name that is not one of the runtime's {@code appengine.*} switches but close to one
   * (letter case aside) is most likely a typo that would silently change nothing.
   */
  private void warnAboutMisspelledSwitches(XmlNode n) {
    for (XmlNode c : n.children) {
      String name = c.attributes.get("name");
      AppEngineSwitches.resembling(name)
          .ifPresent(
              known ->
                  warn(
                      c,
                      "property "
                          + name
                          + " is not a switch of this runtime; did you mean "
                          + known
                          + "?"));
    }
  }
}
