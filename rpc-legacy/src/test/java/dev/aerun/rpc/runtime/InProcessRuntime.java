package dev.aerun.rpc.runtime;

import dev.aerun.rpc.LegacyRpcServer;
import dev.aerun.rpc.proto.EvaluationRuntimeGrpc;
import dev.aerun.rpc.proto.HttpHeader;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UPResponse;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.load.BodyMemory;
import dev.aerun.runtime.load.Capacity;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;

/**
 * The {@link RpcRuntime} of a legacy runtime ({@link LegacyRpcServer#runtime}, whose request path
 * it has), served over grpc-inprocess with direct executors on both ends, and a blocking stub to
 * call it: the real connector and the real service, no sockets.
 */
final class InProcessRuntime implements AutoCloseable {
  final RpcRuntime runtime;
  final Server server;
  final ManagedChannel channel;
  final EvaluationRuntimeGrpc.EvaluationRuntimeBlockingStub stub;

  InProcessRuntime(Handler app, RequestLimits limits, boolean start) throws Exception {
    this(app, limits, new Capacity(8, 8, Duration.ofSeconds(1), false), start);
  }

  InProcessRuntime(Handler app, RequestLimits limits, Capacity capacity, boolean start)
      throws Exception {
    runtime =
        LegacyRpcServer.runtime(
                new LegacyRpcServer.Back(app, limits, capacity),
                RpcTransport.inProcess(),
                new BodyMemory(1L << 30))
            .runtime();
    if (start) {
      runtime.start();
    }
    String name = InProcessServerBuilder.generateName();
    int maxMessage = RpcTransport.maxMessageBytes(limits);
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(runtime.service())
            .maxInboundMessageSize(maxMessage)
            .build()
            .start();
    channel =
        InProcessChannelBuilder.forName(name)
            .directExecutor()
            .maxInboundMessageSize(maxMessage)
            .build();
    stub = EvaluationRuntimeGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  InProcessRuntime(Handler app, RequestLimits limits) throws Exception {
    this(app, limits, true);
  }

  UPResponse call(UPRequest request) {
    return stub.handleRequest(request);
  }

  /** A GET of {@code path} on http://example.com from 203.0.113.7:4321, as a front end sends it. */
  static UPRequest.Builder get(String path) {
    return UPRequest.newBuilder()
        .setAppId("app")
        .setVersionId("v1")
        .setServiceId("default")
        .setRequest(
            HttpRequest.newBuilder()
                .setMethod("GET")
                .setUrl("http://example.com" + path)
                .setHttpVersion("HTTP/1.1")
                .addHeaders(header("Host", "example.com"))
                .setUserIp("203.0.113.7")
                .setUserPort(4321)
                .setLocalAddress("10.0.0.1")
                .setLocalPort(8080));
  }

  static HttpHeader header(String name, String value) {
    return HttpHeader.newBuilder().setName(name).setValue(value).build();
  }

  @Override
  public void close() throws Exception {
    channel.shutdownNow();
    server.shutdownNow();
    runtime.stop();
  }
}
