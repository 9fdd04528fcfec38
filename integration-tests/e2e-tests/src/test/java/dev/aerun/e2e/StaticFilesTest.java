package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Static files from the descriptor (sample-static-app: EE10, public root {@code /public}, a rich
 * {@code <static-files>}, a precompressed {@code .gz}, {@code static-error-handlers}), over real
 * sockets in HttpConnector mode. A response carrying {@code X-Servlet-Chain} went through the app's
 * filter, so static responses must not have it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StaticFilesTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private static final long CSS_SECONDS = 86_400 + 4 * 3_600 + 5 * 60;
  private RuntimeProcess runtime;

  @BeforeAll
  void start() throws Exception {
    runtime = runtimes.start(RuntimeProcess.launch(RuntimeProcess.app("sample-static-app.war")));
    runtime.port();
  }

  private int port() {
    return runtime.port();
  }

  private static void assertStatic(RawResponse response) {
    assertNull(response.header("X-Servlet-Chain"), "static files bypass the servlet chain");
  }

  private static void assertExpiresIn(RawResponse response, long seconds) {
    ZonedDateTime expires =
        ZonedDateTime.parse(response.header("Expires"), DateTimeFormatter.RFC_1123_DATE_TIME);
    ZonedDateTime expected = ZonedDateTime.now().plusSeconds(seconds);
    long skew = Math.abs(Duration.between(expected, expires).getSeconds());
    assertTrue(skew < 120, "Expires " + expires + " is not about now + " + seconds + "s");
  }

  @Test
  void includeExpirationAndHeaderApply() throws Exception {
    RawResponse css = RawResponse.get(port(), "/css/site.css");
    assertEquals(200, css.status());
    assertStatic(css);
    assertEquals("public, max-age=" + CSS_SECONDS, css.header("Cache-Control"));
    assertExpiresIn(css, CSS_SECONDS);
    assertEquals("css", css.header("X-Static-Rule"));
    assertTrue(css.header("Content-Type").startsWith("text/css"));
    assertTrue(css.body().startsWith("/* served from the public root */"));
  }

  @Test
  void defaultExpirationAppliesToIncludesWithoutOne() throws Exception {
    RawResponse docs = RawResponse.get(port(), "/docs/index.html");
    assertEquals(200, docs.status());
    assertEquals("public, max-age=7200", docs.header("Cache-Control"));
    assertExpiresIn(docs, 7200);
  }

  @Test
  void includeHttpHeaderWinsOverTheComputedCacheControl() throws Exception {
    RawResponse note = RawResponse.get(port(), "/plain/note.txt");
    assertEquals(200, note.status());
    assertEquals("no-store", note.header("Cache-Control"));
  }

  @Test
  void singleStarIncludeMatchesOneDirectoryLevel() throws Exception {
    RawResponse js = RawResponse.get(port(), "/js/app.js");
    assertEquals(200, js.status());
    assertStatic(js);
    assertEquals("public, max-age=600", js.header("Cache-Control"));
    assertEquals("*", js.header("Access-Control-Allow-Origin"));
  }

  @Test
  void welcomeFileServesTheRootAndDirectories() throws Exception {
    RawResponse root = RawResponse.get(port(), "/");
    assertEquals(200, root.status());
    assertStatic(root);
    assertTrue(root.body().contains("static home"), root.body());
    RawResponse docs = RawResponse.get(port(), "/docs/");
    assertEquals(200, docs.status());
    assertTrue(docs.body().contains("docs home"), docs.body());
    RawResponse redirect = RawResponse.get(port(), "/docs");
    assertEquals(302, redirect.status());
    assertTrue(redirect.header("Location").endsWith("/docs/"), redirect.header("Location"));
  }

  @Test
  void etagAndLastModifiedGive304() throws Exception {
    RawResponse first = RawResponse.get(port(), "/css/site.css");
    String etag = first.header("ETag");
    String lastModified = first.header("Last-Modified");
    assertNotNull(etag);
    assertNotNull(lastModified);

    RawResponse byEtag = RawResponse.get(port(), "/css/site.css", "If-None-Match: " + etag);
    assertEquals(304, byEtag.status());
    assertEquals("", byEtag.body());
    RawResponse byDate =
        RawResponse.get(port(), "/css/site.css", "If-Modified-Since: " + lastModified);
    assertEquals(304, byDate.status());
    RawResponse otherEtag = RawResponse.get(port(), "/css/site.css", "If-None-Match: \"x\"");
    assertEquals(200, otherEtag.status());
  }

  @Test
  void rangeRequestsGetPartialContent() throws Exception {
    String full = RawResponse.get(port(), "/css/site.css").body();
    RawResponse range = RawResponse.get(port(), "/css/site.css", "Range: bytes=3-12");
    assertEquals(206, range.status());
    assertEquals(full.substring(3, 13), range.body());
    assertEquals("bytes 3-12/" + full.length(), range.header("Content-Range"));
    assertEquals("bytes", range.header("Accept-Ranges"));

    RawResponse multi = RawResponse.get(port(), "/css/site.css", "Range: bytes=0-1,10-11");
    assertEquals(206, multi.status());
    assertTrue(multi.header("Content-Type").startsWith("multipart/byteranges"));

    RawResponse unsatisfiable =
        RawResponse.get(port(), "/css/site.css", "Range: bytes=900000-900010");
    assertEquals(416, unsatisfiable.status());
  }

  @Test
  void precompressedGzipIsServedToClientsThatAcceptIt() throws Exception {
    RawResponse identity = RawResponse.get(port(), "/js/app.js");
    RawResponse gzip = RawResponse.get(port(), "/js/app.js", "Accept-Encoding: gzip");
    assertEquals(200, gzip.status());
    assertEquals("gzip", gzip.header("Content-Encoding"));
    assertTrue(gzip.header("Vary").contains("Accept-Encoding"));
    assertTrue(gzip.header("Content-Type").contains("javascript"), gzip.header("Content-Type"));
    byte[] unzipped =
        new GZIPInputStream(new ByteArrayInputStream(gzip.bodyBytes())).readAllBytes();
    assertArrayEquals(identity.bodyBytes(), unzipped, "app.js.gz must be app.js compressed");
    assertTrue(gzip.bodyBytes().length < identity.bodyBytes().length);
    assertNull(identity.header("Content-Encoding"));
    assertNotEquals(identity.header("ETag"), gzip.header("ETag"));
  }

  @Test
  void headAnswersHeadersOnly() throws Exception {
    RawResponse head = RawResponse.send(port(), "HEAD", "/css/site.css");
    assertEquals(200, head.status());
    assertEquals("", head.body());
    assertNotNull(head.header("ETag"));
  }

  @Test
  void otherMethodsOnAStaticFileGet405WithTheStaticErrorPage() throws Exception {
    RawResponse post = RawResponse.send(port(), "POST", "/css/site.css", "Content-Length: 0");
    assertEquals(405, post.status());
    assertEquals("GET, HEAD", post.header("Allow"));
    assertStatic(post);
    assertTrue(post.body().contains("static error page"), post.body());
  }

  @Test
  void failedPreconditionGetsTheStaticErrorPage() throws Exception {
    RawResponse response = RawResponse.get(port(), "/css/site.css", "If-Match: \"not-it\"");
    assertEquals(412, response.status());
    assertTrue(response.body().contains("static error page"), response.body());
  }

  @Test
  void excludedFilesAreNotStatic() throws Exception {
    // The app sees the WAR root, not the public root: it has no /private/secret.txt.
    RawResponse secret = RawResponse.get(port(), "/private/secret.txt");
    assertEquals(404, secret.status());
    assertEquals("yes", secret.header("X-Servlet-Chain"));
    assertFalse(secret.body().contains("not static"), secret.body());
    assertEquals(404, RawResponse.get(port(), "/errors/default.html").status());
  }

  @Test
  void filesOutsideThePublicRootAreTheAppsToServe() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/root-only.txt"));
    assertEquals(200, response.statusCode());
    assertEquals("yes", response.headers().firstValue("X-Servlet-Chain").orElse(null));
    assertTrue(response.headers().firstValue("Expires").isEmpty());
  }

  @Test
  void jspIsNeverStatic() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/sessions.jsp"));
    assertEquals(200, response.statusCode());
    assertEquals("yes", response.headers().firstValue("X-Servlet-Chain").orElse(null));
    assertFalse(response.body().contains("<%"), response.body());
  }

  @Test
  void webInfAndMetaInfAreNeverServedWhateverTheSpelling() throws Exception {
    List<String> targets =
        List.of(
            "/WEB-INF/web.xml",
            "/WEB-INF/appengine-web.xml",
            "/web-inf/web.xml",
            "/Web-Inf/web.xml",
            "/META-INF/MANIFEST.MF",
            "/meta-inf/MANIFEST.MF",
            "//WEB-INF/web.xml",
            "/./WEB-INF/web.xml",
            "/css/../WEB-INF/web.xml",
            "/css/..%2fWEB-INF/web.xml",
            "/%2e%2e/WEB-INF/web.xml",
            "/css/%2e%2e/WEB-INF/web.xml",
            "/%57EB-INF/web.xml",
            "/WEB-INF%2fweb.xml",
            "/WEB-INF./web.xml",
            "/WEB-INF/web.xml%00",
            "/WEB-INF/web.xml;x=y",
            "/public/../WEB-INF/web.xml",
            "/public/WEB-INF/web.xml");
    for (String target : targets) {
      RawResponse response = RawResponse.get(port(), target);
      assertTrue(
          response.status() == 404 || response.status() == 400,
          target + " answered " + response.status());
      assertFalse(response.body().contains("<web-app"), target + " leaked web.xml");
      assertFalse(response.body().contains("appengine-web-app"), target + " leaked the descriptor");
      assertFalse(response.body().contains("Manifest-Version"), target + " leaked the manifest");
    }
  }

  @Test
  void appRequestsStillReachTheApp() throws Exception {
    HttpResponse<String> response =
        Http.CLIENT.send(
            HttpRequest.newBuilder(runtime.uri("/session/try")).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertEquals(200, response.statusCode());
    assertEquals("yes", response.headers().firstValue("X-Servlet-Chain").orElse(null));
  }

  @Test
  void theIndexOfStaticFilesIsLogged() throws IOException {
    assertTrue(runtime.output().contains("static paths under"), runtime.output());
  }
}
