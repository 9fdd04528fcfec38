package dev.aerun.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.server.PublicServerSpec;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Legacy mode assembled in one JVM with the real runtime: front, transport, back. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LegacyRpcServerTest {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AppEnvironment ENVIRONMENT =
      new AppEnvironment("app", "v1", "default", "aerun/test", false);

  /** /echo answers with the request body; anything else with its path. */
  static final class EchoApp extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if (Request.getPathInContext(request).equals("/echo")) {
        Content.copy(request, response, callback);
      } else {
        Content.Sink.write(response, true, "path " + Request.getPathInContext(request), callback);
      }
      return true;
    }
  }

  /** An app that cannot be deployed. */
  static final class FailingApp extends Handler.Abstract {
    @Override
    protected void doStart() throws Exception {
      throw new IllegalStateException("deployment failed");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      return false;
    }
  }

  private static LegacyRpcServer server(Handler app, RpcTransport transport) {
    PublicServerSpec serving = PublicServerSpec.defaults().withHost("127.0.0.1").withPort(0);
    return LegacyRpcServer.inOneJvm(
        new LegacyRpcServer.Front(serving, ENVIRONMENT),
        new LegacyRpcServer.Back(app, serving.limits(), serving.capacity()),
        transport,
        new BodyMemory(1L << 30));
  }

  @Test
  void inProcess_echoesABody() throws Exception {
    assertEchoes(RpcTransport.inProcess());
  }

  @Test
  void tcp_echoesABody() throws Exception {
    assertEchoes(RpcTransport.tcp("127.0.0.1", 0));
  }

  @Test
  void unix_echoesABody(@TempDir Path temp) throws Exception {
    assumeTrue(RpcTransport.unixSocketsSupported(), "no epoll here");
    assertEchoes(RpcTransport.unix(temp.resolve("rt.sock")));
  }

  @Test
  void failedDeployment_neverOpensThePort() throws Exception {
    LegacyRpcServer server = server(new FailingApp(), RpcTransport.tcp("127.0.0.1", 0));
    assertThrows(Exception.class, server::start);
    assertThrows(IllegalStateException.class, server::port);
  }

  private static void assertEchoes(RpcTransport transport) throws Exception {
    LegacyRpcServer server = server(new EchoApp(), transport);
    server.start();
    int port = server.port();
    try {
      byte[] body = new byte[2 * 1024 * 1024];
      new Random(5).nextBytes(body);
      HttpResponse<byte[]> response =
          CLIENT.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/echo"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, response.statusCode());
      assertArrayEquals(body, response.body());
    } finally {
      server.stop();
    }
    assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
  }

  /** The capture handler on the root logger, if any. */
  private static boolean capturesAppLogs() {
    for (java.util.logging.Handler handler : java.util.logging.Logger.getLogger("").getHandlers()) {
      if (handler.getClass().getSimpleName().equals("AppLogCapture")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void frontEndInThisJvm_appLogLinesAreNotCapturedForIt() throws Exception {
    LegacyRpcServer server = server(new EchoApp(), RpcTransport.tcp("127.0.0.1", 0));
    server.start();
    try {
      assertFalse(capturesAppLogs());
    } finally {
      server.stop();
    }
  }

  @Test
  void runtimeForAnotherProcess_capturesAppLogLines() throws Exception {
    PublicServerSpec serving = PublicServerSpec.defaults();
    LegacyRpcServer runtime =
        LegacyRpcServer.runtime(
            new LegacyRpcServer.Back(new EchoApp(), serving.limits(), serving.capacity()),
            RpcTransport.inProcess(),
            new BodyMemory(1L << 30));
    runtime.start();
    try {
      assertTrue(capturesAppLogs());
    } finally {
      runtime.stop();
    }
  }
}
