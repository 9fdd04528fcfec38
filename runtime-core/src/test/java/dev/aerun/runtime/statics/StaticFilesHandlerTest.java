package dev.aerun.runtime.statics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.DescriptorException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The static files handler in memory, in front of a stand-in app that names what it got. */
class StaticFilesHandlerTest {
  /** The cache a 512 MiB heap gets, as in production. */
  private static final long CACHE = StaticFiles.cacheBytesForHeap(512L << 20);

  private static final String CSS = "body { color: red; }\n";

  @TempDir Path app;
  private Server server;
  private LocalConnector connector;

  /** Answers {@code app:<path>}: a response from here means the request was not static. */
  private static final class App extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.setStatus(200);
      response.write(
          true, StandardCharsets.UTF_8.encode("app:" + request.getHttpURI().getPath()), callback);
      return true;
    }
  }

  @BeforeEach
  void start() throws Exception {
    write("WEB-INF/web.xml", webXml());
    write("WEB-INF/secret.txt", "secret");
    write("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n");
    write("index.html", "<h1>home</h1>");
    write("css/site.css", CSS);
    Files.write(app.resolve("css/site.css.gz"), gzip(CSS));
    write("docs/index.html", "docs home");
    write("jsps/index.jsp", "<%= 1 %>");
    write("page.jsp", "<%= 1 %>");
    write("private/x.txt", "private");
    write("errors/static.html", "<p>static error</p>");
    String descriptor =
        "<static-files>"
            + "<include path=\"/css/**\" expiration=\"1d 4h 5m\">"
            + "<http-header name=\"X-Static\" value=\"css\"/></include>"
            + "<include path=\"/**\"/>"
            + "<exclude path=\"/private/**\"/>"
            + "</static-files>"
            + "<default-expiration>1h</default-expiration>"
            + "<static-error-handlers><handler file=\"errors/static.html\"/></static-error-handlers>";
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    server.setHandler(
        new StaticFilesHandler(
            StaticFiles.from(StaticFileRulesTest.descriptor(descriptor), app, CACHE), new App()));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private static String webXml() {
    return "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
        + "<welcome-file-list><welcome-file>index.jsp</welcome-file>"
        + "<welcome-file>index.html</welcome-file></welcome-file-list></web-app>";
  }

  private void write(String path, String content) throws Exception {
    Path file = app.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  private static byte[] gzip(String text) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  private HttpTester.Response get(String target, String... headers) throws Exception {
    return request("GET", target, headers);
  }

  private HttpTester.Response request(String method, String target, String... headers)
      throws Exception {
    StringBuilder raw = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: test\r\n");
    for (String header : headers) {
      raw.append(header).append("\r\n");
    }
    raw.append("Connection: close\r\n\r\n");
    return HttpTester.parseResponse(connector.getResponse(raw.toString()));
  }

  @Test
  void staticFileIsServedWithValidatorsAndTheIncludesCaching() throws Exception {
    HttpTester.Response response = get("/css/site.css");
    assertEquals(200, response.getStatus());
    assertEquals(CSS, response.getContent());
    assertEquals("public, max-age=" + (86_400 + 4 * 3_600 + 5 * 60), response.get("Cache-Control"));
    assertNotNull(response.get("Expires"));
    assertNotNull(response.get("ETag"));
    assertNotNull(response.get("Last-Modified"));
    assertEquals("bytes", response.get("Accept-Ranges"));
    assertEquals("css", response.get("X-Static"));
    assertTrue(response.get("Content-Type").startsWith("text/css"));
  }

  @Test
  void expiresCountsFromTheResponsesDate_notFromTheClock() throws Exception {
    // A Date stamped in another second than the one the handler runs in, as happens when the clock
    // ticks between a request's arrival and its answer: Expires must still be Date + max-age.
    String date = "Thu, 01 Jan 2026 00:00:00 GMT";
    Handler statics =
        new StaticFilesHandler(
            StaticFiles.from(
                StaticFileRulesTest.descriptor("<default-expiration>1h</default-expiration>"),
                app,
                CACHE),
            new App());
    server.stop();
    server.setHandler(
        new Handler.Wrapper(statics) {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            response.getHeaders().put(HttpHeader.DATE, date);
            return super.handle(request, response, callback);
          }
        });
    server.start();

    HttpTester.Response response = get("/index.html");

    assertEquals(200, response.getStatus());
    assertEquals(date, response.get("Date"));
    assertEquals("public, max-age=3600", response.get("Cache-Control"));
    assertEquals("Thu, 01 Jan 2026 01:00:00 GMT", response.get("Expires"));
  }

  @Test
  void includeWithoutExpirationGetsTheDefaultExpiration() throws Exception {
    assertEquals("public, max-age=3600", get("/docs/index.html").get("Cache-Control"));
  }

  @Test
  void includeHeaderOverridesComputedCacheControl() throws Exception {
    server.stop();
    server.setHandler(
        new StaticFilesHandler(
            StaticFiles.from(
                StaticFileRulesTest.descriptor(
                    "<static-files><include path=\"/**\">"
                        + "<http-header name=\"Cache-Control\" value=\"no-store\"/>"
                        + "</include></static-files>"),
                app,
                CACHE),
            new App()));
    server.start();
    assertEquals("no-store", get("/index.html").get("Cache-Control"));
  }

  @Test
  void ifNoneMatchGets304() throws Exception {
    String etag = get("/css/site.css").get("ETag");
    HttpTester.Response response = get("/css/site.css", "If-None-Match: " + etag);
    assertEquals(304, response.getStatus());
    assertEquals("", response.getContent());
  }

  @Test
  void ifModifiedSinceGets304() throws Exception {
    String lastModified = get("/css/site.css").get("Last-Modified");
    assertEquals(304, get("/css/site.css", "If-Modified-Since: " + lastModified).getStatus());
  }

  @Test
  void rangeGets206() throws Exception {
    HttpTester.Response response = get("/css/site.css", "Range: bytes=0-3");
    assertEquals(206, response.getStatus());
    assertEquals("body", response.getContent());
    assertEquals("bytes 0-3/" + CSS.length(), response.get("Content-Range"));
  }

  @Test
  void failedPreconditionGetsTheStaticErrorPage() throws Exception {
    HttpTester.Response response = get("/css/site.css", "If-Match: \"other\"");
    assertEquals(412, response.getStatus());
    assertEquals("<p>static error</p>", response.getContent());
    assertEquals("no-cache", response.get("Cache-Control"));
  }

  @Test
  void unsatisfiableRangeGets416() throws Exception {
    assertEquals(416, get("/css/site.css", "Range: bytes=5000-6000").getStatus());
  }

  @Test
  void precompressedVariantIsServedToClientsAcceptingGzip() throws Exception {
    HttpTester.Response response = get("/css/site.css", "Accept-Encoding: gzip");
    assertEquals(200, response.getStatus());
    assertEquals("gzip", response.get("Content-Encoding"));
    assertTrue(response.get("Vary").contains("Accept-Encoding"));
    assertArrayEquals(gzip(CSS), response.getContentBytes());
    assertEquals(CSS, get("/css/site.css", "Accept-Encoding: identity").getContent());
  }

  @Test
  void welcomeFileIsServedForTheDirectory() throws Exception {
    HttpTester.Response root = get("/");
    assertEquals(200, root.getStatus());
    assertEquals("<h1>home</h1>", root.getContent());
    assertEquals("public, max-age=3600", root.get("Cache-Control"));
    assertEquals("docs home", get("/docs/").getContent());
  }

  @Test
  void directoryWithoutSlashRedirects() throws Exception {
    HttpTester.Response response = get("/docs");
    assertEquals(302, response.getStatus());
    assertTrue(response.get("Location").endsWith("/docs/"), response.get("Location"));
    assertNull(response.get("Cache-Control"));
  }

  @Test
  void directoryWhoseWelcomeFileIsAJspGoesToTheApp() throws Exception {
    assertEquals("app:/jsps/", get("/jsps/").getContent());
  }

  @Test
  void nonStaticRequestsGoToTheApp() throws Exception {
    assertEquals("app:/page.jsp", get("/page.jsp").getContent());
    assertEquals("app:/private/x.txt", get("/private/x.txt").getContent());
    assertEquals("app:/servlet", get("/servlet").getContent());
    assertEquals("app:/css/missing.css", get("/css/missing.css").getContent());
  }

  @Test
  void webInfAndMetaInfAreNeverServedHere() throws Exception {
    assertEquals("app:/WEB-INF/secret.txt", get("/WEB-INF/secret.txt").getContent());
    assertEquals("app:/web-inf/secret.txt", get("/web-inf/secret.txt").getContent());
    assertEquals("app:/META-INF/MANIFEST.MF", get("/META-INF/MANIFEST.MF").getContent());
    HttpTester.Response dotted = get("/css/../WEB-INF/secret.txt");
    assertTrue(!dotted.getContent().equals("secret"), dotted.getContent());
  }

  @Test
  void otherMethodsGet405WithTheStaticErrorPage() throws Exception {
    HttpTester.Response response = request("POST", "/css/site.css", "Content-Length: 0");
    assertEquals(405, response.getStatus());
    assertEquals("GET, HEAD", response.get("Allow"));
    assertEquals("<p>static error</p>", response.getContent());
    assertNull(response.get("ETag"));
  }

  @Test
  void headHasHeadersButNoBody() throws Exception {
    HttpTester.Response response = request("HEAD", "/css/site.css");
    assertEquals(200, response.getStatus());
    assertEquals(String.valueOf(CSS.length()), response.get("Content-Length"));
  }

  private void restartWith(String descriptor) throws Exception {
    server.stop();
    server.setHandler(
        new StaticFilesHandler(
            StaticFiles.from(StaticFileRulesTest.descriptor(descriptor), app, CACHE), new App()));
    server.start();
  }

  @Test
  void missingStaticErrorHandlerFileFailsStart() throws Exception {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                restartWith(
                    "<static-error-handlers><handler file=\"errors/nope.html\""
                        + " error-code=\"over_quota\"/></static-error-handlers>"));
    assertTrue(e.getMessage().contains("errors/nope.html"), e.getMessage());
    assertTrue(e.getMessage().contains("over_quota"), e.getMessage());
  }

  @Test
  void publicRootOutsideTheAppFailsStart() {
    // Refused where the descriptor is read, with its position, before anything starts.
    DescriptorException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            DescriptorException.class, () -> restartWith("<public-root>/../x</public-root>"));
    assertTrue(e.getMessage().contains("public-root"), e.getMessage());
  }

  @Test
  void publicRootServesItsFilesAtTheRoot() throws Exception {
    restartWith("<public-root>/css</public-root>");
    assertEquals(CSS, get("/site.css").getContent());
    assertEquals("app:/css/site.css", get("/css/site.css").getContent());
  }

  @Test
  void fileDeletedAfterStartGets404WithTheErrorPage() throws Exception {
    Files.delete(app.resolve("docs/index.html"));
    HttpTester.Response response = get("/docs/index.html");
    assertEquals(404, response.getStatus());
    assertEquals("<p>static error</p>", response.getContent());
  }

  @Test
  void servedFileIsKeptInMemory_withItsValidatorsRangesAndPrecompressedVariant() throws Exception {
    HttpTester.Response first = get("/css/site.css");
    HttpTester.Response firstGzip = get("/css/site.css", "Accept-Encoding: gzip");
    assertEquals("gzip", firstGzip.get("Content-Encoding"));

    // Read once: what follows no longer needs the disk.
    Files.delete(app.resolve("css/site.css"));
    Files.delete(app.resolve("css/site.css.gz"));

    HttpTester.Response again = get("/css/site.css");
    assertEquals(200, again.getStatus());
    assertEquals(CSS, again.getContent());
    assertEquals(first.get("ETag"), again.get("ETag"));
    assertEquals(first.get("Last-Modified"), again.get("Last-Modified"));
    assertEquals(304, get("/css/site.css", "If-None-Match: " + first.get("ETag")).getStatus());
    HttpTester.Response range = get("/css/site.css", "Range: bytes=0-3");
    assertEquals(206, range.getStatus());
    assertEquals("body", range.getContent());
    HttpTester.Response gzip = get("/css/site.css", "Accept-Encoding: gzip");
    assertEquals(200, gzip.getStatus());
    assertEquals("gzip", gzip.get("Content-Encoding"));
    assertArrayEquals(firstGzip.getContentBytes(), gzip.getContentBytes());
  }

  @Test
  void inDevelopmentAChangedFileIsServedFresh() throws Exception {
    server.stop();
    server.setHandler(
        new StaticFilesHandler(
            StaticFiles.from(
                StaticFileRulesTest.descriptor(
                    "<static-files><include path=\"/**\"/></static-files>"),
                app,
                0),
            new App()));
    server.start();
    HttpTester.Response before = get("/docs/index.html");
    assertEquals("docs home", before.getContent());

    write("docs/index.html", "docs home, edited");
    Files.setLastModifiedTime(
        app.resolve("docs/index.html"),
        java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));

    HttpTester.Response after = get("/docs/index.html");
    assertEquals(200, after.getStatus());
    assertEquals("docs home, edited", after.getContent());
    assertTrue(!before.get("ETag").equals(after.get("ETag")), after.get("ETag"));
    Files.delete(app.resolve("docs/index.html"));
    assertEquals(404, get("/docs/index.html").getStatus());
  }

  @Test
  void fileAddedAfterStartIsNotStatic() throws Exception {
    write("late.txt", "late");
    assertEquals("app:/late.txt", get("/late.txt").getContent());
  }

  @Test
  void linkedPrecompressedVariantIsNotServed() throws Exception {
    Path outside = Files.createTempFile("outside", ".gz");
    try {
      Files.write(outside, gzip("outside the app"));
      Files.delete(app.resolve("css/site.css.gz"));
      Files.createSymbolicLink(app.resolve("css/site.css.gz"), outside);
      HttpTester.Response response = get("/css/site.css", "Accept-Encoding: gzip");
      assertEquals(200, response.getStatus());
      assertNull(response.get("Content-Encoding"));
      assertEquals(CSS, response.getContent());
    } finally {
      Files.deleteIfExists(outside);
    }
  }

  @Test
  void linkedFileIsNotStatic() throws Exception {
    Path outside = Files.createTempFile("outside", ".txt");
    try {
      Files.writeString(outside, "outside the app");
      restartWith("");
      Files.createSymbolicLink(app.resolve("link.txt"), outside);
      restartWith("");
      assertEquals("app:/link.txt", get("/link.txt").getContent());
    } finally {
      Files.deleteIfExists(outside);
    }
  }
}
