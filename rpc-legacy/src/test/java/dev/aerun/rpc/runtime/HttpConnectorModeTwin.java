package dev.aerun.rpc.runtime;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.runtime.contract.AppBodyHandler;
import dev.aerun.runtime.contract.AppEngineRequestHandler;
import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.contract.TrustPolicy;
import dev.aerun.runtime.load.Capacity;
import dev.aerun.runtime.server.PublicServers;
import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;

/**
 * The same app in HttpConnector mode's request path (contract → limits → app, the same server
 * configuration), on a LocalConnector: the reference the RPC runtime must be indistinguishable
 * from. It also plays the front end: {@link #upRequest} builds what legacy mode's front server
 * would send for the same raw request, from the same contract verdict.
 */
final class HttpConnectorModeTwin implements AutoCloseable {
  /** LocalConnector's peer address, trusted so platform headers count. */
  static final ContractOptions OPTIONS =
      new ContractOptions(TrustPolicy.parse("0.0.0.0,127.0.0.1"), false);

  final Server server;
  final LocalConnector connector;

  HttpConnectorModeTwin(Handler app, RequestLimits limits) throws Exception {
    server =
        PublicServers.newServer("twin", new Capacity(8, 8, java.time.Duration.ofSeconds(1), false));
    connector =
        new LocalConnector(
            server, new HttpConnectionFactory(PublicServers.newHttpConfiguration(limits)));
    server.addConnector(connector);
    AppEngineRequestHandler contract = new AppEngineRequestHandler(OPTIONS);
    Handler.Wrapper body = new AppBodyHandler(limits);
    server.setHandler(contract);
    contract.setHandler(body);
    body.setHandler(app);
    server.start();
  }

  HttpTester.Response request(String raw) throws Exception {
    return HttpTester.parseResponse(connector.getResponse(raw));
  }

  /**
   * What legacy mode's front end sends for a request with these parts, received on {@code local}
   * from a trusted peer.
   */
  static UPRequest upRequest(
      String method,
      String pathQuery,
      HttpFields received,
      byte[] body,
      InetSocketAddress peer,
      InetSocketAddress local) {
    ContractResult contract = new RequestContract(OPTIONS).apply(received, peer, false);
    HttpRequest.Builder http =
        HttpRequest.newBuilder()
            .setMethod(method)
            .setUrl("http://" + received.get("Host") + pathQuery)
            .setHttpVersion("HTTP/1.1")
            .setBody(ByteString.copyFrom(body))
            .setIsHttps(contract.secure())
            .setTrusted(contract.trustedPeer())
            .setUserIp(contract.remoteAddress().getAddress().getHostAddress())
            .setUserPort(contract.remoteAddress().getPort())
            .setLocalAddress(local.getAddress().getHostAddress())
            .setLocalPort(local.getPort());
    for (HttpField field : contract.headers()) {
      http.addHeaders(InProcessRuntime.header(field.getName(), field.getValue()));
    }
    UPRequest.Builder up =
        UPRequest.newBuilder()
            .setRequest(http)
            .setTimeoutMillis(Math.max(0, contract.timeoutMillis()));
    if (contract.requestLogId() != null) {
      up.setRequestLogId(contract.requestLogId());
    }
    if (contract.trace() != null) {
      up.getTraceBuilder()
          .setTraceId(contract.trace().traceId())
          .setSpanId(contract.trace().spanId() == null ? "" : contract.trace().spanId())
          .setSampled(contract.trace().sampled());
    }
    if (contract.user() != null) {
      up.getUserBuilder()
          .setEmail(contract.user().email())
          .setIsAdmin(contract.user().admin())
          .setId(contract.user().id() == null ? "" : contract.user().id());
    }
    if (contract.task() != null) {
      up.getTaskBuilder()
          .setQueueName(contract.task().queueName() == null ? "" : contract.task().queueName())
          .setTaskName(contract.task().taskName() == null ? "" : contract.task().taskName())
          .setRetryCount(contract.task().retryCount())
          .setCron(contract.task().cron());
    }
    return up.build();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
