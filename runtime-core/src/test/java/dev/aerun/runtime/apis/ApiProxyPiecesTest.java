package dev.aerun.runtime.apis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ApiProxyPiecesTest {
  @Test
  void urlMessageRoundTrips() {
    String longUrl = "/" + "x".repeat(300) + "?é=1";
    assertEquals(longUrl, UrlMessages.destination(UrlMessages.withUrl(longUrl)));
  }

  @Test
  void destinationSkipsOtherFields() {
    // field 2 (auth domain, "ex"), a varint field 5 = 300, then field 1 = "/a"
    byte[] message = {0x12, 2, 'e', 'x', 0x28, (byte) 0xac, 0x02, 0x0a, 2, '/', 'a'};
    assertEquals("/a", UrlMessages.destination(message));
    assertEquals("", UrlMessages.destination(new byte[0]));
  }

  @Test
  void urlMessageIsFieldOneLengthDelimited() {
    assertArrayEquals(new byte[] {0x0a, 2, '/', 'a'}, UrlMessages.withUrl("/a"));
  }

  @Test
  void unavailableServiceNamesTheServiceAndItsReplacement() {
    String message = RemoteServices.unavailable("memcache", "Get");
    assertTrue(message.startsWith("App Engine's Memcache service (memcache.Get)"), message);
    assertTrue(message.contains("not available: no App Engine API host"), message);
    assertTrue(message.contains("API_HOST and API_PORT"), message);
    assertTrue(message.contains("Memorystore"), message);
    String unknown = RemoteServices.unavailable("novel", "Call");
    assertTrue(unknown.contains("novel.Call"), unknown);
  }
}
