package dev.aerun.runtime.webapp;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.contract.RequestLimits;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.http.pathmap.PathSpecGroup;
import org.eclipse.jetty.server.AllowedResourceAliasChecker;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * What every {@link WebappHost} does the same way, whatever the EE version. Public for the
 * implementations in the EE modules; not an API for anything else.
 */
public final class WebappDefaults {

  // The name people see in the deployment's log line.
  private static final Logger log = Logger.getLogger(WebappHost.class.getName());

  /**
   * Container jars scanned like {@code WEB-INF/lib} jars for TLDs, fragments and resources. JSTL's
   * tag library descriptors ship in the glassfish implementation jar on the container classpath;
   * Jasper only finds them if the jar matches. The patterns match both the flat production layout
   * ({@code lib/ee10/jakarta.servlet.jsp.jstl-3.0.1.jar}) and the Maven repository layout used by
   * tests, and only the implementation jar (not the {@code -api} jar).
   */
  public static String containerIncludeJarPattern(EeVersion version) {
    return switch (version) {
      case EE8 -> ".*/javax\\.servlet\\.jsp\\.jstl-\\d[^/]*\\.jar$";
      case EE10 -> ".*/jakarta\\.servlet\\.jsp\\.jstl-\\d[^/]*\\.jar$";
      // Jetty's ee11 JSTL ships its implementation and tag library descriptors in Glassfish's
      // wasp jar.
      case EE11 -> ".*/wasp-\\d[^/]*\\.jar$";
    };
  }

  /**
   * Whether Jetty's annotation scan reads the container jars {@code jars} (those the webapp's
   * metadata holds; Jetty reads every class of them for {@code @WebServlet}, {@code @WebFilter},
   * {@code @WebListener} and for the types initializers ask for). The runtime lets in only the
   * tag-library jar ({@link #containerIncludeJarPattern}), for its tag library descriptors; it
   * holds no servlet annotations (a test checks each EE version's), so its 1,700 to 2,000 classes
   * are read only when an initializer's {@code @HandlesTypes} asks for types ({@code typesAsked}),
   * which it then sees as on a stock Jetty. A jar the app let in some other way is always read.
   */
  public static boolean scansContainerJars(EeVersion version, boolean typesAsked, List<URI> jars) {
    if (typesAsked) {
      return true;
    }
    Pattern tagLibraries = Pattern.compile(containerIncludeJarPattern(version));
    return !jars.stream().allMatch(jar -> tagLibraries.matcher(jarPath(jar)).matches());
  }

  /** A jar's path as Jetty's include patterns see it: a {@code jar:file:...!/} URI's file part. */
  private static String jarPath(URI jar) {
    String uri = jar.toString();
    if (uri.startsWith("jar:")) {
      int bang = uri.indexOf("!/");
      uri = uri.substring("jar:".length(), bang < 0 ? uri.length() : bang);
    }
    return uri;
  }

  /**
   * The container initializers of JSP support (Jasper's, and Jetty's around it), as a pattern for
   * Jetty's {@code containerInitializerExclusionPattern}: excluded for an app without JSP.
   */
  public static String jspInitializers(EeVersion version) {
    return switch (version) {
      case EE8 -> "org\\.eclipse\\.jetty\\.ee8\\.apache\\.jsp\\..*|org\\.apache\\.jasper\\..*";
      case EE10 -> "org\\.eclipse\\.jetty\\.ee10\\.apache\\.jsp\\..*|org\\.apache\\.jasper\\..*";
      case EE11 ->
          "org\\.eclipse\\.jetty\\.ee11\\.apache\\.jsp\\..*|org\\.apache\\.jasper\\..*"
              + "|org\\.glassfish\\.wasp\\..*";
    };
  }

  /**
   * The container initializers left out for an app with JSP, as a pattern for {@code
   * containerInitializerExclusionPattern}: Jetty's own JSP initializer, for which the EE module
   * adds one that parses the container's tag library descriptors on the first JSP compiled, not at
   * start; and on EE11, GlassFish WaSP's, which its JSTL jar declares: it parses every descriptor
   * again for WaSP's own JSP compiler, which Jetty does not use (Jasper compiles), and adds their
   * listeners a second time.
   */
  public static String replacedJspInitializers(EeVersion version) {
    return switch (version) {
      case EE8 -> "org\\.eclipse\\.jetty\\.ee8\\.apache\\.jsp\\.JettyJasperInitializer";
      case EE10 -> "org\\.eclipse\\.jetty\\.ee10\\.apache\\.jsp\\.JettyJasperInitializer";
      case EE11 ->
          "org\\.eclipse\\.jetty\\.ee11\\.apache\\.jsp\\.JettyJasperInitializer"
              + "|org\\.glassfish\\.wasp\\..*";
    };
  }

  /**
   * Whether the tag library descriptor at {@code url} is the container's (in the tag-library jar of
   * {@link #containerIncludeJarPattern}), not the app's: a jar in a {@code WEB-INF/lib} folder is
   * the app's, whatever its name.
   */
  public static boolean isContainerTld(EeVersion version, URL url) {
    String uri = url.toString();
    if (!uri.startsWith("jar:") || uri.contains("/WEB-INF/lib/")) {
      return false;
    }
    return jarPath(URI.create(uri)).matches(containerIncludeJarPattern(version));
  }

  /**
   * The context attributes a webapp for {@code spec} gets, by names every EE's Jetty reads: with
   * JSP, the container jars scanned for tag libraries ({@link #containerIncludeJarPattern}) and
   * Jetty's JSP initializer left out for the EE module's ({@link #replacedJspInitializers});
   * without, every JSP initializer left out ({@link #jspInitializers}).
   */
  public static Map<String, String> contextAttributes(WebappSpec spec, EeVersion version) {
    return spec.jsp()
        ? Map.of(
            CONTAINER_INCLUDE_JAR_PATTERN,
            containerIncludeJarPattern(version),
            CONTAINER_INITIALIZER_EXCLUSION_PATTERN,
            replacedJspInitializers(version))
        : Map.of(CONTAINER_INITIALIZER_EXCLUSION_PATTERN, jspInitializers(version));
  }

  /**
   * The context init parameters every webapp gets: its default servlet lists no directory, and a
   * welcome file may name a servlet mapping.
   */
  public static Map<String, String> initParameters() {
    return Map.of(DIR_ALLOWED_PARAMETER, "false", WELCOME_SERVLETS_PARAMETER, "true");
  }

  /**
   * {@code items} (servlets or servlet mappings of a webapp) without those of the {@link
   * #JSP_SERVLET}, for a webapp whose app has no JSP; {@code null} stays {@code null}.
   */
  public static <T> T[] withoutJsp(
      T[] items, Function<T, String> servletName, IntFunction<T[]> array) {
    if (items == null) {
      return null;
    }
    return Arrays.stream(items)
        .filter(item -> !JSP_SERVLET.equals(servletName.apply(item)))
        .toArray(array);
  }

  /** The name of the default servlet in Jetty's default descriptor, in ee8, ee10 and ee11. */
  public static final String DEFAULT_SERVLET = "default";

  /** The name of the JSP servlet in Jetty's default descriptor, the same in ee8, ee10 and ee11. */
  public static final String JSP_SERVLET = "jsp";

  /**
   * The attribute name Jetty's AnnotationConfiguration reads for container initializers to leave
   * out, the same in ee8, ee10 and ee11.
   */
  public static final String CONTAINER_INITIALIZER_EXCLUSION_PATTERN =
      "org.eclipse.jetty.containerInitializerExclusionPattern";

  /** The attribute name Jetty's MetaInfConfiguration reads, the same in ee8, ee10 and ee11. */
  public static final String CONTAINER_INCLUDE_JAR_PATTERN =
      "org.eclipse.jetty.server.webapp.ContainerIncludeJarPattern";

  /**
   * Fail server start when the app fails to start, rather than serving 503s from a half-up server.
   */
  public static final boolean THROW_UNAVAILABLE_ON_STARTUP = true;

  /**
   * The context init parameter through which Jetty's default servlet (ee8, ee10 and ee11 alike)
   * decides whether it lists directories. The runtime sets it to {@code false}, as the platform
   * never lists an app's directories; an app's own {@code <context-param>} still wins.
   */
  public static final String DIR_ALLOWED_PARAMETER = "org.eclipse.jetty.servlet.Default.dirAllowed";

  /**
   * The context init parameter through which Jetty's default servlet (ee8, ee10 and ee11 alike)
   * decides whether a {@code <welcome-file>} may name a servlet mapping. The runtime sets it to
   * {@code true}: as on the platform, {@code <welcome-file>userapi</welcome-file>} forwards a
   * directory's request (the app's root, say) to the servlet mapped at {@code dir/userapi} when the
   * directory has no such file. An app's own {@code <context-param>} still wins.
   */
  public static final String WELCOME_SERVLETS_PARAMETER =
      "org.eclipse.jetty.servlet.Default.welcomeServlets";

  /**
   * Makes {@code context} (the core context of a webapp, whatever its EE version) serve a resource
   * reached through a symbolic link only if the link's real target is inside the app and not under
   * a protected directory ({@code WEB-INF}, {@code META-INF}). Jetty's default ({@link
   * org.eclipse.jetty.server.SymlinkAllowedResourceAliasChecker}) follows any link whose own path
   * is allowed, so {@code css/passwd -> /etc/passwd} or {@code pub -> WEB-INF} would be served by
   * the app's default servlet.
   */
  public static void restrictAliases(ContextHandler context) {
    context.clearAliasChecks();
    context.addAliasCheck(new AllowedResourceAliasChecker(context));
  }

  /** Whether a servlet mapping names paths of the app's own: exact or prefix, not the default. */
  public static boolean isOwnMapping(PathSpec mapping) {
    if (mapping == null) {
      return false;
    }
    PathSpecGroup group = mapping.getGroup();
    return group == PathSpecGroup.EXACT
        || group == PathSpecGroup.PREFIX_GLOB
        || group == PathSpecGroup.MIDDLE_GLOB;
  }

  /**
   * The largest form body {@code getParameter} reads: the request body limit (32 MiB), as on the
   * platform, rather than Jetty's 200,000 bytes, so an app gets the parameters of any request the
   * runtime accepts. The body limit itself still answers 413 for anything larger.
   */
  public static final int MAX_FORM_CONTENT_SIZE = (int) RequestLimits.DEFAULT_BODY_LIMIT;

  /**
   * The most form fields {@code getParameter} parses (Jetty's default, kept on purpose): a bound on
   * the parameter map a request can make the app build, whatever the body's size; more is 400.
   */
  public static final int MAX_FORM_KEYS = 1000;

  /** Servlet spec default: the app's own classes win over the container's. */
  public static final boolean PARENT_LOADER_PRIORITY = false;

  /** Creates the temp directory if needed, logs the deployment and returns the directory. */
  public static File prepare(WebappSpec spec, EeVersion version) {
    try {
      Files.createDirectories(spec.tempDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create webapp temp directory " + spec.tempDirectory(), e);
    }
    log.info(
        "Deploying "
            + version
            + " webapp "
            + spec.appLocation()
            + " at context path "
            + spec.contextPath());
    return spec.tempDirectory().toFile();
  }

  /**
   * Returns what {@code action} supplies, run with {@code loader} as the thread's context class
   * loader. Jetty finds parts of an EE environment (its configurations, by {@link
   * java.util.ServiceLoader} and by class name) through the context class loader, which must see
   * the EE's Jetty jars even when they sit in a child of the application class loader.
   */
  public static <T> T withContextClassLoader(ClassLoader loader, Supplier<T> action) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return action.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private WebappDefaults() {}

  /**
   * The extra class path in the form {@code WebAppContext.setExtraClasspath} takes (entries
   * separated by commas), or null when there is none.
   */
  public static String extraClasspath(WebappSpec spec) {
    if (spec.extraClasspath().isEmpty()) {
      return null;
    }
    return spec.extraClasspath().stream()
        .map(p -> p.toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(","));
  }
}
