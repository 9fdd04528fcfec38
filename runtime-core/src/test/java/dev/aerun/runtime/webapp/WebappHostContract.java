package dev.aerun.runtime.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link WebappHost} must do, run by a subclass in each EE module (each on a test
 * classpath holding only that EE's JSP stack). Shipped in runtime-core's test-jar.
 */
public abstract class WebappHostContract {

  /** The EE version under test; its host must be a ServiceLoader provider on the test classpath. */
  protected abstract EeVersion version();

  /**
   * The binary name of a class holding two nested fixtures: {@code FailingListener} (a servlet
   * context listener that throws) and {@code ThrowingServlet} (throws {@link #SECRET} on GET).
   */
  protected abstract String fixturesClass();

  /** What a failing servlet throws; must never reach the client. */
  public static final String SECRET = "secret-detail-42";

  private static final String JSP =
      """
      <%@ taglib prefix="c" uri="http://java.sun.com/jsp/jstl/core" %>\
      <c:forEach var="i" begin="1" end="3"><c:out value="${i}"/>,</c:forEach>
      """;

  @TempDir Path tmp;

  private final HttpClient client = HttpClient.newHttpClient();
  private Server server;

  @AfterEach
  void stopServer() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void loadFindsTheHostForItsVersion() {
    WebappHost host = WebappHost.load(version(), getClass().getClassLoader());

    assertEquals(version(), host.eeVersion());
  }

  @Test
  void servesWelcomeFileAndJspWithJstl() throws Exception {
    EeVersion version = version();
    Path app = writeApp(version, "");

    int port = start(version, app);

    HttpResponse<String> index = get(port, "/");
    assertEquals(200, index.statusCode());
    assertTrue(index.body().contains("static index"), index.body());
    HttpResponse<String> jsp = get(port, "/loop.jsp");
    assertEquals(200, jsp.statusCode(), jsp.body());
    assertEquals("1,2,3,", jsp.body().strip());
  }

  @Test
  void honoursErrorPageMapping() throws Exception {
    EeVersion version = version();
    Path app =
        writeApp(
            version,
            "<error-page><error-code>404</error-code><location>/missing.html</location>"
                + "</error-page>");
    Files.writeString(app.resolve("missing.html"), "custom not found page");

    int port = start(version, app);

    HttpResponse<String> response = get(port, "/no/such/thing");
    assertEquals(404, response.statusCode());
    assertTrue(response.body().contains("custom not found page"), response.body());
  }

  @Test
  void errorResponseShowsNoExceptionDetails() throws Exception {
    EeVersion version = version();
    String servletClass = fixturesClass() + "$ThrowingServlet";
    Path app =
        writeApp(
            version,
            "<servlet><servlet-name>boom</servlet-name><servlet-class>"
                + servletClass
                + "</servlet-class></servlet>"
                + "<servlet-mapping><servlet-name>boom</servlet-name>"
                + "<url-pattern>/boom</url-pattern></servlet-mapping>");

    int port = start(version, app);

    for (String accept : new String[] {"text/html", "text/plain", "application/json"}) {
      HttpResponse<String> response = get(port, "/boom", accept);
      assertEquals(500, response.statusCode());
      assertFalse(response.body().contains(SECRET), response.body());
      assertFalse(response.body().contains("IllegalStateException"), response.body());
      assertFalse(response.body().contains("ThrowingServlet"), response.body());
    }
  }

  @Test
  void failingListenerFailsServerStart() throws Exception {
    EeVersion version = version();
    String listenerClass = fixturesClass() + "$FailingListener";
    Path app =
        writeApp(
            version, "<listener><listener-class>" + listenerClass + "</listener-class></listener>");

    assertThrows(Exception.class, () -> start(version, app));
  }

  @Test
  void withJspOff_theAppServes_andNothingIsCompiled() throws Exception {
    EeVersion version = version();
    Path app = writeApp(version, "");
    Path withoutJsp = writeApp(version, "", "plain");
    Files.delete(withoutJsp.resolve("loop.jsp"));
    assertFalse(JspUsage.needsJsp(withoutJsp));
    assertTrue(JspUsage.needsJsp(app)); // so the launcher would never switch JSP off for it

    // Switched off anyway, on an app with a JSP: Jasper is gone, the JSP is never run.
    int port = start(version, app, false);

    assertEquals(200, get(port, "/").statusCode());
    assertTrue(get(port, "/").body().contains("static index"));
    assertFalse(get(port, "/loop.jsp").body().contains("1,2,3,"));
  }

  @Test
  void initializerAskingForTypes_isHandedThoseOfTheTagLibraryJar() throws Exception {
    EeVersion version = version();
    Path app = writeApp(version, "", "types");
    String services =
        (version == EeVersion.EE8 ? "javax" : "jakarta") + ".servlet.ServletContainerInitializer";
    Path service = app.resolve("WEB-INF/classes/META-INF/services/" + services);
    Files.createDirectories(service.getParent());
    Files.writeString(service, fixturesClass() + "$TagTypesInitializer\n");

    int port = start(version, app);

    // The app has no such classes: every one counted is the container's JSTL implementation's,
    // found only by reading that jar (as a stock Jetty does when types are asked for).
    HttpResponse<String> types = get(port, "/tag-types");
    assertEquals(200, types.statusCode(), types.body());
    assertTrue(Integer.parseInt(types.body().strip()) >= 5, types.body());
    assertEquals("1,2,3,", get(port, "/loop.jsp").body().strip());
  }

  @Test
  void tagLibraryJar_holdsNoServletAnnotations() throws Exception {
    // Why its annotation scan may be left out when no initializer asks for types.
    EeVersion version = version();
    String pattern = WebappDefaults.containerIncludeJarPattern(version);
    String annotations = (version == EeVersion.EE8 ? "javax" : "jakarta") + "/servlet/annotation/";
    List<String> jars = new ArrayList<>();
    for (URL tld : Collections.list(getClass().getClassLoader().getResources("META-INF/c.tld"))) {
      String jar = tld.toString().replaceFirst("^jar:(.*)!/.*$", "$1");
      if (!jar.matches(pattern)) {
        continue;
      }
      jars.add(jar);
      int classes = 0;
      try (ZipFile zip = new ZipFile(Path.of(URI.create(jar)).toFile())) {
        for (ZipEntry entry : Collections.list(zip.entries())) {
          if (!entry.getName().endsWith(".class")) {
            continue;
          }
          classes++;
          String bytes;
          try (InputStream in = zip.getInputStream(entry)) {
            bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
          }
          for (String name : List.of("WebServlet;", "WebFilter;", "WebListener;")) {
            assertFalse(bytes.contains("L" + annotations + name), entry.getName() + " " + name);
          }
        }
      }
      assertTrue(classes > 1000, jar + ": " + classes + " classes");
    }
    assertEquals(1, jars.size(), "the tag-library jars on the class path: " + jars);
  }

  @Test
  void loginServiceOnEveryWebapp_evenWithoutConstraints_andNothingIsRefused() throws Exception {
    // As on the platform, whose authenticator is on every app: the signed-in user is the app's
    // principal whether or not web.xml protects anything (see AppViewTest for the user).
    EeVersion version = version();
    int port = start(version, writeApp(version, "", "unprotected"));
    assertEquals(200, get(port, "/").statusCode());
    assertTrue(server.dump().contains("AppEngineLoginService"), "the login service is installed");
  }

  @Test
  void anyLoginConfigDeploys_andAnonymousUsersOfProtectedPathsGoToTheLoginUrl() throws Exception {
    EeVersion version = version();
    String security =
        "<security-constraint><web-resource-collection><web-resource-name>a</web-resource-name>"
            + "<url-pattern>/index.html</url-pattern></web-resource-collection>"
            + "<auth-constraint><role-name>admin</role-name></auth-constraint>"
            + "</security-constraint>"
            + "<login-config><auth-method>BASIC</auth-method><realm-name>r</realm-name>"
            + "</login-config>";
    int port = start(version, writeApp(version, security, "protected"));
    assertTrue(server.dump().contains("AppEngineLoginService"));
    HttpResponse<String> response = get(port, "/index.html");
    assertEquals(302, response.statusCode());
    assertEquals(
        "/_ah/login?continue=http%3A%2F%2F127.0.0.1%3A" + port + "%2Findex.html",
        response.headers().firstValue("Location").orElseThrow());
    // The request contract is not in front here: headers alone never make a user.
    HttpRequest forged =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/index.html"))
            .header("X-AppEngine-User-Email", "a@example.com")
            .header("X-AppEngine-User-Is-Admin", "true")
            .build();
    assertEquals(302, client.send(forged, HttpResponse.BodyHandlers.ofString()).statusCode());
  }

  private int start(EeVersion version, Path app) throws Exception {
    return start(version, app, true);
  }

  private int start(EeVersion version, Path app, boolean jsp) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    WebappSpec spec = new WebappSpec(app, "/", tmp.resolve("work-" + version)).withJsp(jsp);
    server.setHandler(WebappHost.load(version, getClass().getClassLoader()).createWebapp(spec));
    server.start();
    return connector.getLocalPort();
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return get(port, path, "text/html");
  }

  private HttpResponse<String> get(int port, String path, String accept)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", accept)
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Writes an exploded webapp: web.xml with {@code extraWebXml}, index.html and a JSTL JSP. */
  private Path writeApp(EeVersion version, String extraWebXml) throws IOException {
    return writeApp(version, extraWebXml, "app");
  }

  private Path writeApp(EeVersion version, String extraWebXml, String name) throws IOException {
    Path app = tmp.resolve(name + "-" + version);
    Files.createDirectories(app.resolve("WEB-INF"));
    String header =
        version == EeVersion.EE8
            ? "<web-app xmlns=\"http://xmlns.jcp.org/xml/ns/javaee\" version=\"4.0\">"
            : "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">";
    Files.writeString(
        app.resolve("WEB-INF/web.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + header
            + "<welcome-file-list><welcome-file>index.html</welcome-file></welcome-file-list>"
            + extraWebXml
            + "</web-app>\n");
    Files.writeString(app.resolve("index.html"), "<html><body>static index</body></html>");
    Files.writeString(app.resolve("loop.jsp"), JSP);
    return app;
  }
}
