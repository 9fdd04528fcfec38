package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Everything a webapp relies on, served by the real runtime in HttpConnector mode: one subclass per
 * EE version runs the same checks on the sample app built for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SampleAppTest {
  @RegisterExtension final Runtimes runtimes = new Runtimes();

  private final String war;
  private final String ee;
  private RuntimeProcess runtime;

  SampleAppTest(String war, String ee) {
    this.war = war;
    this.ee = ee;
  }

  @BeforeAll
  void start() throws Exception {
    runtime = runtimes.start(RuntimeProcess.launch(RuntimeProcess.app(war)));
    runtime.port();
  }

  @Test
  void annotatedServletAnswers() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/hello"));
    assertEquals(200, response.statusCode());
    assertEquals("Hello from " + ee, response.body().trim());
  }

  @Test
  void servletDeclaredInWebXmlWithInitParameter() throws Exception {
    assertEquals(
        "Declared in web.xml: hello from web.xml",
        Http.get(runtime.uri("/declared")).body().trim());
  }

  @Test
  void webFragmentServletFromALibraryJar() throws Exception {
    assertEquals(
        "Hello from web-fragment (" + ee + ")", Http.get(runtime.uri("/fragment")).body().trim());
  }

  @Test
  void annotatedFilterAddsItsHeader() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/hello"));
    assertEquals(ee, response.headers().firstValue("X-Sample-Filter").orElse(null));
  }

  @Test
  void annotatedListenerRanAtStartup() throws Exception {
    assertEquals(
        "initialized", Http.requestInfo(runtime.uri("/request-info")).get("listener").asText());
  }

  @Test
  void jspWithJstlRendersAndEscapes() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/jstl.jsp?name=%3Cb%3E"));
    assertEquals(200, response.statusCode());
    assertTrue(response.body().contains("JSP on " + ee + ": 1,2,3"), response.body());
    assertTrue(response.body().contains("name=&lt;b&gt;"), response.body());
  }

  @Test
  void asyncServletCompletesOnAnotherThread() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/async"));
    assertEquals(200, response.statusCode());
    assertTrue(response.body().contains("completed on sample-async-worker"), response.body());
  }

  @Test
  void multipartUploadIsParsed() throws Exception {
    String boundary = "----aerun-boundary";
    String body =
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
            + "0123456789\r\n--"
            + boundary
            + "--\r\n";
    HttpRequest request =
        HttpRequest.newBuilder(runtime.uri("/upload"))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<byte[]> response = Http.send(request);
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(200, response.statusCode(), text);
    assertTrue(text.contains("title=5"), text);
    assertTrue(text.contains("file=10"), text);
  }

  @Test
  void welcomeFileServedForTheRoot() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/"));
    assertEquals(200, response.statusCode());
    assertTrue(response.body().contains("<html"), response.body());
  }

  @Test
  void staticFileServed() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/css/site.css"));
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/css"));
  }

  @Test
  void directoriesAreNotListed() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/css/"));
    assertTrue(response.statusCode() >= 400, "status " + response.statusCode());
    assertFalse(response.body().contains("site.css"), response.body());
  }

  @Test
  void webInfIsNeverServed() throws Exception {
    assertEquals(404, Http.get(runtime.uri("/WEB-INF/web.xml")).statusCode());
    assertEquals(404, Http.get(runtime.uri("/WEB-INF/appengine-web.xml")).statusCode());
  }

  /**
   * Jasper, reading the app's tag libraries at start, looks for three XML schemas only Tomcat's
   * servlet API jar carries and warns about each at every start; the runtime drops those warnings.
   */
  @Test
  void startLogsNoWarningAboutJaspersXmlSchemas() throws Exception {
    Http.get(runtime.uri("/jstl.jsp?name=x"));

    assertFalse(runtime.output().contains("The XML schema ["), runtime.output());
  }

  @Test
  void errorPageFor404() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/no/such/page"));
    assertEquals(404, response.statusCode());
    assertTrue(response.body().contains("Sample app: page not found"), response.body());
  }

  @Test
  void errorPageForAnExceptionShowsNoStackTrace() throws Exception {
    HttpResponse<String> response = Http.get(runtime.uri("/fail"));
    assertEquals(500, response.statusCode());
    assertTrue(response.body().contains("Sample app: something went wrong"), response.body());
    assertNoInternals(response.body());
  }

  @Test
  void bodyStreamsBothWays() throws Exception {
    byte[] payload = new byte[5 * 1024 * 1024 + 17];
    new Random(42).nextBytes(payload);
    HttpRequest request =
        HttpRequest.newBuilder(runtime.uri("/echo"))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
            .build();
    HttpResponse<byte[]> response = Http.send(request);
    assertEquals(200, response.statusCode());
    assertArrayEquals(payload, response.body());
  }

  @Test
  void appSeesTheAppEngineSystemProperties() throws Exception {
    JsonNode properties = Http.requestInfo(runtime.uri("/request-info")).get("systemProperties");
    assertEquals("Production", properties.get("com.google.appengine.runtime.environment").asText());
    assertTrue(
        properties.get("com.google.appengine.runtime.version").asText().startsWith("aerun/"),
        properties.toString());
    assertEquals("no_app_id", properties.get("com.google.appengine.application.id").asText());
    assertEquals("hello", properties.get("sample.greeting").asText());
  }

  @Test
  void requestAsTheAppSeesIt() throws Exception {
    JsonNode info = Http.requestInfo(runtime.uri("/request-info?a=1&b=%20x"));
    assertEquals("GET", info.get("method").asText());
    assertEquals("/request-info", info.get("uri").asText());
    assertEquals("a=1&b=%20x", info.get("query").asText());
    assertEquals("127.0.0.1", info.get("remoteAddr").asText());
    assertEquals("http", info.get("scheme").asText());
    assertFalse(info.get("secure").asBoolean());
    assertEquals(runtime.port(), info.get("serverPort").asInt());
  }

  static void assertNoInternals(String body) {
    assertFalse(body.contains("Exception"), body);
    assertFalse(body.contains("\tat "), body);
    assertFalse(body.contains("dev.aerun"), body);
    assertFalse(body.contains("org.eclipse.jetty"), body);
  }
}
