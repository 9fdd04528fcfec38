package dev.aerun.rpc.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.runtime.contract.RequestLimits;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RpcTransportTest {
  private static final int MAX = RpcTransport.maxMessageBytes(RequestLimits.defaults());

  /** Answers with the request's body, so a round trip carries the bytes both ways. */
  static final class EchoRuntime extends EvaluationRuntimeGrpc.EvaluationRuntimeImplBase {
    @Override
    public void handleRequest(UPRequest request, StreamObserver<UPResponse> observer) {
      observer.onNext(
          UPResponse.newBuilder()
              .setHttpStatus(200)
              .setBody(request.getRequest().getBody())
              .build());
      observer.onCompleted();
    }
  }

  @Test
  void parse_inprocessGetsAFreshUniqueName() {
    RpcTransport a = RpcTransport.parse("inprocess");
    RpcTransport b = RpcTransport.parse("inprocess");
    assertEquals(RpcTransport.Kind.INPROCESS, a.kind());
    assertNotEquals(a.name(), b.name());
    assertFalse(a.isSocket());
  }

  @Test
  void parse_inprocessWithName() {
    assertEquals(RpcTransport.inProcess("x"), RpcTransport.parse("inprocess:x"));
  }

  @Test
  void parse_tcp() {
    RpcTransport t = RpcTransport.parse("tcp:127.0.0.1:7000");
    assertEquals(RpcTransport.Kind.TCP, t.kind());
    assertEquals("127.0.0.1", t.host());
    assertEquals(7000, t.port());
    assertTrue(t.isSocket());
    assertEquals("tcp:127.0.0.1:7000", t.toString());
  }

  @Test
  void parse_tcpIpv6InBrackets() {
    RpcTransport t = RpcTransport.parse("tcp:[::1]:0");
    assertEquals("::1", t.host());
    assertEquals(0, t.port());
    assertEquals("tcp:[::1]:0", t.toString());
  }

  @Test
  void parse_unix() {
    RpcTransport t = RpcTransport.parse("unix:/tmp/a.sock");
    assertEquals(RpcTransport.Kind.UNIX, t.kind());
    assertEquals(Path.of("/tmp/a.sock"), t.path());
    assertEquals("unix:/tmp/a.sock", t.toString());
  }

  @Test
  void parse_schemeIgnoresCase() {
    assertEquals(RpcTransport.tcp("localhost", 1), RpcTransport.parse("TCP:localhost:1"));
  }

  @Test
  void parse_roundTripsThroughToString() {
    for (String form : new String[] {"inprocess:n", "tcp:h:1", "tcp:[::1]:2", "unix:/x/y"}) {
      assertEquals(form, RpcTransport.parse(form).toString());
    }
  }

  @Test
  void parse_rejectsBadValuesNamingTheForms() {
    for (String bad :
        new String[] {
          "",
          "udp:1.2.3.4:5",
          "tcp:",
          "tcp:host",
          "tcp::80",
          "tcp:h:x",
          "tcp:h:70000",
          "tcp:::1:80",
          "tcp:[::1]",
          "unix:",
          "grpc://h:1"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> RpcTransport.parse(bad), bad);
      assertTrue(
          e.getMessage().contains("tcp:HOST:PORT") || e.getMessage().contains("unix:PATH"),
          e.getMessage());
    }
  }

  @Test
  void maxMessageBytes_leavesRoomAboveTheBodyLimit() {
    assertTrue(MAX > RequestLimits.DEFAULT_BODY_LIMIT + 64 * 1024);
    assertEquals(
        Integer.MAX_VALUE,
        RpcTransport.maxMessageBytes(RequestLimits.defaults().withIgnoreResponseSizeLimit(true)));
  }

  @Test
  void inProcess_roundTrip() throws Exception {
    assertRoundTrip(RpcTransport.inProcess(), 1024);
  }

  @Test
  void tcp_roundTripOnAnEphemeralPortWithABodyAboveGrpcsDefaultLimit() throws Exception {
    RpcTransport bound = assertRoundTrip(RpcTransport.parse("tcp:127.0.0.1:0"), 6 * 1024 * 1024);
    assertTrue(bound.port() > 0, bound.toString());
  }

  @Test
  void unix_roundTrip(@TempDir Path temp) throws Exception {
    assumeTrue(RpcTransport.unixSocketsSupported(), "no epoll here");
    Path socket = temp.resolve("rt.sock");
    assertRoundTrip(RpcTransport.parse("unix:" + socket), 6 * 1024 * 1024);
    assertFalse(Files.exists(socket), "the socket file is removed on close");
  }

  @Test
  void tcp_connectingToNobodyFailsTheCallNotTheChannel() throws Exception {
    try (RpcChannel channel = RpcTransport.parse("tcp:127.0.0.1:1").openChannel(MAX)) {
      io.grpc.StatusRuntimeException e =
          assertThrows(
              io.grpc.StatusRuntimeException.class,
              () ->
                  EvaluationRuntimeGrpc.newBlockingStub(channel.channel())
                      .withDeadlineAfter(10, TimeUnit.SECONDS)
                      .handleRequest(UPRequest.getDefaultInstance()));
      assertEquals(io.grpc.Status.Code.UNAVAILABLE, e.getStatus().getCode());
    }
  }

  @Test
  void close_leavesNoTransportThreads() throws Exception {
    assertRoundTrip(RpcTransport.parse("tcp:127.0.0.1:0"), 10);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (transportThreads() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(0, transportThreads());
  }

  private static long transportThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("aerun-grpc-"))
        .count();
  }

  /** Serves the echo runtime, calls it once with {@code size} bytes, closes both ends. */
  private static RpcTransport assertRoundTrip(RpcTransport transport, int size) throws Exception {
    byte[] body = new byte[size];
    new Random(size).nextBytes(body);
    RpcServer server = transport.startServer(new EchoRuntime(), MAX);
    try (server;
        RpcChannel channel = server.address().openChannel(MAX)) {
      UPResponse response =
          EvaluationRuntimeGrpc.newBlockingStub(channel.channel())
              .withDeadlineAfter(20, TimeUnit.SECONDS)
              .handleRequest(
                  UPRequest.newBuilder()
                      .setRequest(HttpRequest.newBuilder().setBody(ByteString.copyFrom(body)))
                      .build());
      assertEquals(200, response.getHttpStatus());
      assertArrayEquals(body, response.getBody().toByteArray());
      return server.address();
    }
  }
}
