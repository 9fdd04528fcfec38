package dev.aerun.runtime.webapp;

import dev.aerun.runtime.security.LoginUrls;
import dev.aerun.runtime.sessions.WebappSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What to deploy and where.
 *
 * @param appLocation the staged app: an exploded directory or a {@code .war} file; must exist
 * @param contextPath the context path, {@code "/"} for the root
 * @param tempDirectory the webapp's work directory (extracted WAR, compiled JSPs); created if
 *     missing
 * @param sessions whether the app has HTTP sessions, and their store
 * @param jsp whether JSP support starts with the app (Jasper, its TLD scan and the {@code jsp}
 *     servlet); off only for an app {@link JspUsage} finds nothing for JSP in
 * @param login where the App Engine login of an app with {@code <security-constraint>}s sends
 *     anonymous users (see {@link dev.aerun.runtime.security})
 * @param extraClasspath class directories and jars the app sees after its own {@code
 *     WEB-INF/classes} and {@code WEB-INF/lib} (a project's {@code target/classes} and dependencies
 *     when the app is served from its sources); scanned for annotations and fragments like them
 * @param development whether error pages show the exception and its stack trace to loopback clients
 *     (they never do to anyone else)
 * @param deferredTasks whether the SDK's {@code DeferredTaskServlet} serves {@link
 *     DeferredTasks#PATH} (an app with {@code <app-engine-apis>})
 */
public record WebappSpec(
    Path appLocation,
    String contextPath,
    Path tempDirectory,
    WebappSessions sessions,
    boolean jsp,
    LoginUrls login,
    List<Path> extraClasspath,
    boolean development,
    boolean deferredTasks) {

  /** A spec with Jetty's stock sessions (enabled, in memory) and JSP support. */
  public WebappSpec(Path appLocation, String contextPath, Path tempDirectory) {
    this(
        appLocation,
        contextPath,
        tempDirectory,
        WebappSessions.inMemory(),
        true,
        LoginUrls.defaults(),
        List.of(),
        false,
        false);
  }

  public WebappSpec {
    extraClasspath = List.copyOf(extraClasspath);
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(login, "login");
    Objects.requireNonNull(appLocation, "appLocation");
    Objects.requireNonNull(contextPath, "contextPath");
    Objects.requireNonNull(tempDirectory, "tempDirectory");
    if (!Files.isDirectory(appLocation) && !Files.isRegularFile(appLocation)) {
      throw new IllegalArgumentException(
          "App location " + appLocation + " does not exist (expected a directory or a .war file)");
    }
    if (!contextPath.startsWith("/")) {
      throw new IllegalArgumentException(
          "Context path must start with '/', got '" + contextPath + "'");
    }
    if (Files.exists(tempDirectory) && !Files.isDirectory(tempDirectory)) {
      throw new IllegalArgumentException(
          "Temp directory " + tempDirectory + " exists but is not a directory");
    }
  }

  /** This spec with other session settings. */
  public WebappSpec withSessions(WebappSessions newSessions) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        newSessions,
        jsp,
        login,
        extraClasspath,
        development,
        deferredTasks);
  }

  /** This spec with JSP support on or off. */
  public WebappSpec withJsp(boolean newJsp) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        sessions,
        newJsp,
        login,
        extraClasspath,
        development,
        deferredTasks);
  }

  /** This spec with other login URLs. */
  public WebappSpec withLogin(LoginUrls newLogin) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        sessions,
        jsp,
        newLogin,
        extraClasspath,
        development,
        deferredTasks);
  }

  /** This spec with these entries after the app's own class path. */
  public WebappSpec withExtraClasspath(List<Path> entries) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        sessions,
        jsp,
        login,
        entries,
        development,
        deferredTasks);
  }

  /** This spec with development error pages on or off. */
  public WebappSpec withDevelopment(boolean newDevelopment) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        sessions,
        jsp,
        login,
        extraClasspath,
        newDevelopment,
        deferredTasks);
  }

  /** This spec with the SDK's {@code DeferredTaskServlet} at {@link DeferredTasks#PATH} or not. */
  public WebappSpec withDeferredTasks(boolean serve) {
    return new WebappSpec(
        appLocation,
        contextPath,
        tempDirectory,
        sessions,
        jsp,
        login,
        extraClasspath,
        development,
        serve);
  }
}
