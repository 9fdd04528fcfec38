package dev.aerun.rpc.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aerun.rpc.proto.HttpRequest;
import org.eclipse.jetty.http.HttpURI;
import org.junit.jupiter.api.Test;

class UpRequestTranslatorTest {
  private static HttpURI uri(String url, boolean https) throws Exception {
    return UpRequestTranslator.uri(HttpRequest.newBuilder().setUrl(url).setIsHttps(https).build());
  }

  @Test
  void absoluteUrl_keepsHostPortPathAndRawQuery() throws Exception {
    HttpURI uri = uri("http://example.com:8080/a%20b?x=%2F&y", false);

    assertEquals("http", uri.getScheme());
    assertEquals("example.com", uri.getHost());
    assertEquals(8080, uri.getPort());
    assertEquals("/a%20b", uri.getPath());
    assertEquals("x=%2F&y", uri.getQuery());
  }

  @Test
  void defaultPortIsDropped_andEmptyPathIsSlash() throws Exception {
    HttpURI uri = uri("http://example.com:80", false);

    assertEquals(-1, uri.getPort());
    assertEquals("/", uri.getPath());
  }

  @Test
  void secureRequest_getsTheHttpsSchemeAndKeepsTheAuthority() throws Exception {
    HttpURI uri = uri("http://example.com:8080/p", true);

    assertEquals("https", uri.getScheme());
    assertEquals(8080, uri.getPort());
  }

  @Test
  void asteriskForm_hasTheAsteriskPath() throws Exception {
    HttpURI uri = uri("http://example.com:8080*", false);

    assertEquals("*", uri.getPath());
    assertEquals("example.com", uri.getHost());
    assertEquals(8080, uri.getPort());
  }

  @Test
  void asteriskInAPath_isAnOrdinaryPath() throws Exception {
    assertEquals("/files/*", uri("http://example.com/files/*", false).getPath());
  }

  @Test
  void relativeUrl_isABadRequest() {
    assertThrows(UpRequestTranslator.BadRequestException.class, () -> uri("/just/a/path", false));
  }
}
