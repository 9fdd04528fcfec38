package dev.aerun.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseParserTest {
  private static final String HELLO =
      "HTTP/1.1 200 OK\r\nDate: x\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\n"
          + "Hello, world!";

  /** Feeds {@code text} in pieces of {@code piece} bytes; the statuses of complete responses. */
  private static List<Integer> feed(ResponseParser parser, String text, int piece) {
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < bytes.length; i += piece) {
      ByteBuffer in = ByteBuffer.wrap(bytes, i, Math.min(piece, bytes.length - i));
      while (in.hasRemaining()) {
        if (parser.parse(in)) {
          statuses.add(parser.status());
        }
      }
    }
    return statuses;
  }

  @Test
  void contentLength_responsesEndWhereTheirBodiesEnd_howeverTheBytesAreSplit() {
    String three = HELLO + HELLO.replace("200 OK", "404 Not Found") + HELLO;
    for (int piece : new int[] {1, 2, 7, 64, three.length()}) {
      assertEquals(List.of(200, 404, 200), feed(new ResponseParser(), three, piece), "" + piece);
    }
  }

  @Test
  void chunked_withExtensionsAndTrailers() {
    String chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nHello\r\n"
            + "A\r\n0123456789\r\n"
            + "0\r\nTrailer: yes\r\n\r\n";
    for (int piece : new int[] {1, 3, chunked.length()}) {
      ResponseParser parser = new ResponseParser();
      assertEquals(List.of(200, 201), feed(parser, chunked + chunked.replace("200", "201"), piece));
      assertFalse(parser.closeAfter());
    }
  }

  @Test
  void noBody_for204_304_head_andAfterAnInterimResponse() {
    ResponseParser parser = new ResponseParser();
    assertEquals(
        List.of(204, 304, 200),
        feed(
            parser,
            "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"
                + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
            5));
    parser.expectNoBody(true);
    assertEquals(List.of(200), feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n", 4));
  }

  @Test
  void connectionClose_andHttp10_andNoFramingReadUntilClose() {
    ResponseParser parser = new ResponseParser();
    feed(parser, "HTTP/1.1 200 OK\r\nconnection: Close\r\ncontent-length: 1\r\n\r\nx", 3);
    assertTrue(parser.closeAfter());
    feed(parser, "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 3);
    assertTrue(parser.closeAfter());
    feed(parser, "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", 3);
    assertFalse(parser.closeAfter());

    assertEquals(List.of(), feed(parser, "HTTP/1.1 200 OK\r\n\r\nbody until close", 4));
    assertTrue(parser.readsUntilClose());
  }

  @Test
  void notHttp_isRefused() {
    assertThrows(
        IllegalStateException.class, () -> feed(new ResponseParser(), "SSH-2.0-OpenSSH\r\n", 64));
    assertThrows(
        IllegalStateException.class,
        () -> feed(new ResponseParser(), "HTTP/1.1 2x0 OK\r\n\r\n", 64));
    assertThrows(
        IllegalStateException.class,
        () -> feed(new ResponseParser(), "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 64));
  }

  @Test
  void chunkFraming_isCheckedStrictly() {
    String head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (String body :
        List.of("zz\r\nab\r\n0\r\n\r\n", ";x\r\n0\r\n\r\n", "2\r\nabc\r\n0\r\n\r\n")) {
      assertThrows(
          IllegalStateException.class, () -> feed(new ResponseParser(), head + body, 64), body);
    }
  }

  @Test
  void switchingProtocols_isTheFinalAnswer_whatFollowsIsNotHttp() {
    ResponseParser parser = new ResponseParser();
    assertEquals(
        List.of(),
        feed(parser, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n\0\0\0", 4));
    assertEquals(101, parser.status());
    assertTrue(parser.readsUntilClose());
  }

  @Test
  void listener_getsWholeLinesAndDecodedBody_howeverTheBytesAreSplit() {
    String longValue = "v".repeat(1000);
    String response =
        "HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nX-Long: "
            + longValue
            + "\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nHello\r\n7;ext=1\r\n, world\r\n0\r\nX-Checksum: abc\r\n\r\n";
    for (int piece : new int[] {1, 5, response.length()}) {
      List<String> events = new ArrayList<>();
      StringBuilder body = new StringBuilder();
      ResponseParser parser =
          new ResponseParser(
              new ResponseParser.Listener() {
                @Override
                public void statusLine(String line) {
                  events.add("status " + line);
                }

                @Override
                public void header(String line) {
                  events.add("header " + line);
                }

                @Override
                public void endOfHead(boolean interim) {
                  events.add(interim ? "interim" : "final");
                }

                @Override
                public void body(ByteBuffer bytes) {
                  body.append(StandardCharsets.ISO_8859_1.decode(bytes));
                }

                @Override
                public void trailer(String line) {
                  events.add("trailer " + line);
                }
              });

      assertEquals(List.of(200), feed(parser, response, piece), "" + piece);
      assertEquals(
          List.of(
              "status HTTP/1.1 100 Continue",
              "interim",
              "status HTTP/1.1 200 OK",
              "header X-Long: " + longValue,
              "header Transfer-Encoding: chunked",
              "final",
              "trailer X-Checksum: abc"),
          events,
          "" + piece);
      assertEquals("Hello, world", body.toString(), "" + piece);
    }
  }

  @Test
  void atResponseStart_untilTheFirstByteOfTheNextResponse() {
    ResponseParser parser = new ResponseParser();
    assertTrue(parser.atResponseStart());
    feed(parser, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 100);
    assertTrue(parser.atResponseStart());
    feed(parser, "HTTP/1.1 2", 100);
    assertFalse(parser.atResponseStart());
  }
}
