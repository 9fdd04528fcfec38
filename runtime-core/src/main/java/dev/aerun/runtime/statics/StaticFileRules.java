package dev.aerun.runtime.statics;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXml.StaticInclude;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Which files of an app are static, and with what caching headers, from the descriptor's {@code
 * <static-files>}, {@code <public-root>} and {@code <default-expiration>}. Pure logic: no I/O and
 * no Jetty, so the rules are tested on their own.
 *
 * <p>Paths are URL paths relative to the public root, starting with {@code /} (a file {@code
 * <public-root>/img/a.png} is {@code /img/a.png}). The rules, as on App Engine:
 *
 * <ul>
 *   <li>a file is static if it matches an {@code <include>} and no {@code <exclude>}; with no
 *       include (the element absent or an empty {@code <static-files/>}) every file is included;
 *   <li>patterns are globs: {@code **} matches any characters including {@code /}, {@code *} any
 *       characters but {@code /}; everything else is literal; a pattern without a leading {@code /}
 *       gets one;
 *   <li>the first matching include gives the expiration and the extra headers; without an {@code
 *       expiration} the {@code <default-expiration>} applies, and without that {@link
 *       #PLATFORM_DEFAULT_EXPIRATION_SECONDS} (the platform's 10 minutes);
 *   <li>never static, whatever the rules say: anything under a {@code WEB-INF} or {@code META-INF}
 *       segment (any case) and JSP sources ({@code .jsp}, {@code .jspx}), which the app compiles.
 * </ul>
 */
public final class StaticFileRules {
  private static final Logger log = Logger.getLogger(StaticFileRules.class.getName());

  /** The expiration of a static file when neither its include nor the descriptor gives one. */
  public static final long PLATFORM_DEFAULT_EXPIRATION_SECONDS = 600;

  /**
   * The longest expiration served, a year (the platform's maximum, and HTTP's advice for {@code
   * Expires}): a longer one in the descriptor is served as a year, with a warning at start-up.
   */
  public static final long MAX_EXPIRATION_SECONDS = 365L * 24 * 60 * 60;

  /**
   * How one static file is served.
   *
   * @param expirationSeconds {@code Cache-Control: public, max-age} and {@code Expires} from now
   * @param httpHeaders extra response headers from the include, file order
   */
  public record Rule(long expirationSeconds, Map<String, String> httpHeaders) {
    /** Copies the headers; clamps the expiration to {@code 0..}{@link #MAX_EXPIRATION_SECONDS}. */
    public Rule {
      expirationSeconds = Math.max(0, Math.min(expirationSeconds, MAX_EXPIRATION_SECONDS));
      httpHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(httpHeaders));
    }
  }

  private record Include(PathGlob pattern, Rule rule) {}

  private final String publicRoot;
  private final List<Include> includes;
  private final List<PathGlob> excludes;

  private StaticFileRules(String publicRoot, List<Include> includes, List<PathGlob> excludes) {
    this.publicRoot = publicRoot;
    this.includes = List.copyOf(includes);
    this.excludes = List.copyOf(excludes);
  }

  /** The rules of {@code descriptor}. */
  public static StaticFileRules from(AppEngineWebXml descriptor) {
    long defaultExpiration =
        descriptor.defaultExpirationSeconds().orElse(PLATFORM_DEFAULT_EXPIRATION_SECONDS);
    warnIfClamped(defaultExpiration, "<default-expiration>");
    AppEngineWebXml.StaticFiles files = descriptor.staticFiles();
    List<Include> includes = new ArrayList<>();
    if (files.includesEverything()) {
      includes.add(new Include(glob("/**"), new Rule(defaultExpiration, Map.of())));
    }
    for (StaticInclude include : files.includes()) {
      include
          .expirationSeconds()
          .ifPresent(
              seconds ->
                  warnIfClamped(
                      seconds, "the expiration of <include path=\"" + include.path() + "\">"));
      includes.add(
          new Include(
              glob(include.path()),
              new Rule(
                  include.expirationSeconds().orElse(defaultExpiration), include.httpHeaders())));
    }
    List<PathGlob> excludes = new ArrayList<>();
    for (String exclude : files.excludes()) {
      excludes.add(glob(exclude));
    }
    return new StaticFileRules(normalizeRoot(descriptor.publicRoot()), includes, excludes);
  }

  /**
   * The public root as an app-relative directory path: {@code ""} for the app's root, else {@code
   * /dir} (no trailing slash).
   */
  public String publicRoot() {
    return publicRoot;
  }

  /**
   * The rule for the file at {@code path} (relative to the public root, starting with {@code /}),
   * or empty if the file is not static.
   */
  public Optional<Rule> match(String path) {
    if (neverStatic(path) || neverStatic(publicRoot + path)) {
      return Optional.empty();
    }
    for (PathGlob exclude : excludes) {
      if (exclude.matches(path)) {
        return Optional.empty();
      }
    }
    for (Include include : includes) {
      if (include.pattern().matches(path)) {
        return Optional.of(include.rule());
      }
    }
    return Optional.empty();
  }

  /**
   * True if a URL or file path must never be served as a static file: it has a {@code WEB-INF} or
   * {@code META-INF} segment in any letter case, or is a JSP source.
   */
  public static boolean neverStatic(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    for (String segment : lower.split("/")) {
      if (segment.equals("web-inf") || segment.equals("meta-inf")) {
        return true;
      }
    }
    return lower.endsWith(".jsp") || lower.endsWith(".jspx");
  }

  /** Compiles an App Engine path glob (see {@link PathGlob}). */
  static PathGlob glob(String glob) {
    return PathGlob.compile(glob);
  }

  private static void warnIfClamped(long seconds, String what) {
    if (seconds > MAX_EXPIRATION_SECONDS) {
      log.warning(
          what
              + " is "
              + seconds
              + " seconds, more than a year: static files are served with a year");
    }
  }

  private static String normalizeRoot(Optional<String> root) {
    String r = root.map(String::trim).orElse("");
    while (r.endsWith("/")) {
      r = r.substring(0, r.length() - 1);
    }
    if (!r.isEmpty() && !r.startsWith("/")) {
      r = "/" + r;
    }
    return r;
  }
}
