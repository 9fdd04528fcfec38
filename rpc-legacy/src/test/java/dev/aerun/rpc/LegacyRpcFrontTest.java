package dev.aerun.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.rpc.transport.RpcServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.server.PublicServerSpec;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The front end alone, talking to a runtime elsewhere over a real socket. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LegacyRpcFrontTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final BodyMemory MEMORY = new BodyMemory(1L << 30);

  /** Answers with the request's URL, so a test sees the request went through. */
  static final class UrlRuntime extends EvaluationRuntimeGrpc.EvaluationRuntimeImplBase {
    @Override
    public void handleRequest(UPRequest request, StreamObserver<UPResponse> observer) {
      observer.onNext(
          UPResponse.newBuilder()
              .setHttpStatus(200)
              .setBody(ByteString.copyFromUtf8(request.getRequest().getUrl()))
              .build());
      observer.onCompleted();
    }
  }

  private static LegacyRpcServer.Front frontSpec() {
    return new LegacyRpcServer.Front(
        new PublicServerSpec(
            "127.0.0.1",
            0,
            ContractOptions.defaults(),
            RequestLimits.defaults(),
            Duration.ofSeconds(30),
            new Capacity(8, 8, Duration.ofSeconds(1), false)),
        new AppEnvironment("app", "v1", "default", "aerun/test", false));
  }

  @Test
  void forwardsOverTcp() throws Exception {
    assertForwards(RpcTransport.parse("tcp:127.0.0.1:0"));
  }

  @Test
  void forwardsOverAUnixSocket(@TempDir Path temp) throws Exception {
    assumeTrue(RpcTransport.unixSocketsSupported(), "no epoll here");
    assertForwards(RpcTransport.unix(temp.resolve("rt.sock")));
  }

  @Test
  void startsWithoutItsRuntimeAndAnswers503() throws Exception {
    LegacyRpcServer front =
        LegacyRpcServer.frontEnd(frontSpec(), RpcTransport.parse("tcp:127.0.0.1:1"), MEMORY);
    front.start();
    try {
      assertEquals(503, get(front.port(), "/x").statusCode());
    } finally {
      front.stop();
    }
  }

  @Test
  void portBeforeStartIsAnError() {
    LegacyRpcServer front = LegacyRpcServer.frontEnd(frontSpec(), RpcTransport.inProcess(), MEMORY);
    assertThrows(IllegalStateException.class, front::port);
  }

  private static void assertForwards(RpcTransport listen) throws Exception {
    try (RpcServer runtime =
        listen.startServer(
            new UrlRuntime(), RpcTransport.maxMessageBytes(RequestLimits.defaults()))) {
      LegacyRpcServer front = LegacyRpcServer.frontEnd(frontSpec(), runtime.address(), MEMORY);
      front.start();
      try {
        HttpResponse<String> response = get(front.port(), "/a/b?c=d");
        assertEquals(200, response.statusCode());
        assertEquals("http://127.0.0.1:" + front.port() + "/a/b?c=d", response.body());
      } finally {
        front.stop();
      }
    }
  }

  /**
   * A runtime that accepts the connection and never says a word (a wedged process, or a socket
   * whose other end vanished): the call's default deadline ends the request. Before, the request
   * waited forever, holding a slot of the front end.
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void wedgedRuntime_requestEndsAtTheDefaultDeadline() throws Exception {
    try (ServerSocket wedged = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> accepted = new CopyOnWriteArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    accepted.add(wedged.accept()); // and never read or write
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      LegacyRpcServer.Front spec = frontSpec();
      LegacyRpcServer front =
          LegacyRpcServer.frontEnd(
              new LegacyRpcServer.Front(spec.server(), spec.environment(), Duration.ofSeconds(2)),
              RpcTransport.tcp("127.0.0.1", wedged.getLocalPort()),
              MEMORY);
      front.start();
      try {
        assertEquals(504, get(front.port(), "/x").statusCode());
      } finally {
        front.stop();
        for (Socket socket : accepted) {
          socket.close();
        }
      }
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return CLIENT.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
