package dev.aerun.runtime.webapp.ee10;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.WebappDefaults;
import dev.aerun.runtime.webapp.WebappHost;
import dev.aerun.runtime.webapp.WebappSpec;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.jasper.compiler.TldCache;
import org.apache.tomcat.util.descriptor.tld.TaglibXml;
import org.apache.tomcat.util.descriptor.tld.TldParser;
import org.apache.tomcat.util.descriptor.tld.TldResourcePath;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LazyTldJasperInitializerTest {
  private static final EeVersion VERSION = EeVersion.EE10;
  private static final String JSP =
      "<%@ taglib prefix=\"c\" uri=\"http://java.sun.com/jsp/jstl/core\" %>"
          + "<c:forEach var=\"i\" begin=\"1\" end=\"3\"><c:out value=\"${i}\"/>,</c:forEach>\n";

  @TempDir Path tmp;
  private Server server;
  private Handler webapp;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void containerDescriptors_parsedOnTheFirstJspCompiled_notAtStart() throws Exception {
    int port = start(writeApp(""));
    Object cache = tldCache();
    LazyTldJasperInitializer.Lazy lazy =
        assertInstanceOf(LazyTldJasperInitializer.Lazy.class, cache);
    assertFalse(lazy.scannedYet(), "parsed at start");
    // Jetty's list of the jars' descriptors, which it drops after the start, kept for the scan.
    assertTrue(
        lazy.jarTlds().stream().anyMatch(url -> WebappDefaults.isContainerTld(VERSION, url)),
        String.valueOf(lazy.jarTlds()));

    HttpResponse<String> jsp = get(port, "/loop.jsp");

    assertEquals(200, jsp.statusCode(), jsp.body());
    assertEquals("1,2,3,", jsp.body().strip()); // JSTL's core library resolved by its URI
    assertTrue(lazy.scannedYet());
    assertEquals(cache, tldCache());
  }

  @Test
  void appDescriptorsListener_isAddedAtStart() throws Exception {
    // A listener only the app's own tag library declares still runs when the app starts, as with
    // Jetty's initializer: this one fails the start.
    Path app = writeApp("");
    Files.writeString(app.resolve("WEB-INF/app.tld"), tld(Ee10Fixtures.FailingListener.class));

    Exception e = assertThrows(Exception.class, () -> start(app));

    assertTrue(
        String.valueOf(rootCause(e).getMessage()).contains("listener failed on purpose"),
        e::toString);
  }

  @Test
  void appDescriptorsListener_isAddedOnce() throws Exception {
    // Once, by Jasper's initializer (EE11's JSTL jar also declares WaSP's, which added it again).
    Path app = writeApp("");
    Files.writeString(app.resolve("WEB-INF/app.tld"), tld(Ee10Fixtures.CountingListener.class));

    start(app);

    assertEquals(
        1,
        Ee10Jetty.servletHandler(webapp)
            .getServletContext()
            .getAttribute(Ee10Fixtures.CountingListener.STARTS));
  }

  @Test
  void containerDescriptors_declareNoListeners() throws Exception {
    // Why the start may leave them unparsed: none of them could add a listener.
    List<String> tlds = new ArrayList<>();
    TldParser parser = new TldParser(true, false, true);
    for (URL c : Collections.list(getClass().getClassLoader().getResources("META-INF/c.tld"))) {
      if (!WebappDefaults.isContainerTld(VERSION, c)) {
        continue;
      }
      String jar = c.toString().replaceFirst("^jar:(.*)!/.*$", "$1");
      try (ZipFile zip = new ZipFile(Path.of(URI.create(jar)).toFile())) {
        for (ZipEntry entry : Collections.list(zip.entries())) {
          if (entry.getName().startsWith("META-INF/") && entry.getName().endsWith(".tld")) {
            TaglibXml tld = parser.parse(new TldResourcePath(new URL(jar), null, entry.getName()));
            assertEquals(List.of(), tld.getListeners(), entry.getName());
            tlds.add(entry.getName());
          }
        }
      }
    }
    assertTrue(tlds.size() >= 10, "the container's descriptors: " + tlds);
  }

  @Test
  void isContainerTld_onlyTheTagLibraryJarOutsideTheApp() throws Exception {
    String jstl =
        WebappDefaults.containerIncludeJarPattern(VERSION).contains("wasp")
            ? "wasp-4.0.0.jar"
            : (VERSION == EeVersion.EE8 ? "javax" : "jakarta") + ".servlet.jsp.jstl-3.0.1.jar";
    assertTrue(
        WebappDefaults.isContainerTld(
            VERSION, new URL("jar:file:/opt/aerun/lib/x/" + jstl + "!/META-INF/c.tld")));
    assertFalse(
        WebappDefaults.isContainerTld(
            VERSION, new URL("jar:file:/app/WEB-INF/lib/" + jstl + "!/META-INF/c.tld")));
    assertFalse(
        WebappDefaults.isContainerTld(
            VERSION, new URL("jar:file:/opt/aerun/lib/x/other-1.0.jar!/META-INF/c.tld")));
    assertFalse(WebappDefaults.isContainerTld(VERSION, new URL("file:/app/WEB-INF/c.tld")));
  }

  /** The app's own tag library descriptor, declaring {@code listener}. */
  private static String tld(Class<?> listener) {
    return "<taglib xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"3.0\">"
        + "<tlib-version>1.0</tlib-version><short-name>app</short-name><uri>urn:app</uri>"
        + "<listener><listener-class>"
        + listener.getName()
        + "</listener-class></listener></taglib>\n";
  }

  private Object tldCache() {
    return Ee10Jetty.servletHandler(webapp)
        .getServletContext()
        .getAttribute(TldCache.SERVLET_CONTEXT_ATTRIBUTE_NAME);
  }

  private static Throwable rootCause(Throwable e) {
    while (e.getCause() != null && e.getCause() != e) {
      e = e.getCause();
    }
    return e;
  }

  private int start(Path app) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setPort(0);
    server.addConnector(connector);
    WebappSpec spec = new WebappSpec(app, "/", tmp.resolve("work")).withJsp(true);
    webapp = WebappHost.load(VERSION, getClass().getClassLoader()).createWebapp(spec);
    server.setHandler(webapp);
    server.start();
    return connector.getLocalPort();
  }

  private Path writeApp(String extraWebXml) throws Exception {
    Path app = tmp.resolve("app");
    Files.createDirectories(app.resolve("WEB-INF"));
    Files.writeString(
        app.resolve("WEB-INF/web.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
            + extraWebXml
            + "</web-app>\n");
    Files.writeString(app.resolve("loop.jsp"), JSP);
    return app;
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
