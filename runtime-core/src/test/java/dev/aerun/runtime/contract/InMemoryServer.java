package dev.aerun.runtime.contract;

import dev.aerun.runtime.errors.NoDetailsErrorHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;

/** A server with the contract and limit handlers in front of {@code app}, on a LocalConnector. */
final class InMemoryServer implements AutoCloseable {
  /** LocalConnector's peer: its endpoints report 0.0.0.0:0 as the remote address. */
  static final TrustPolicy TRUST_LOCAL = TrustPolicy.parse("0.0.0.0");

  static final TrustPolicy TRUST_OTHERS = TrustPolicy.parse("10.0.0.0/8");

  final Server server;
  final LocalConnector connector;

  InMemoryServer(ContractOptions options, RequestLimits limits, Handler app) throws Exception {
    server = new Server();
    server.setErrorHandler(new NoDetailsErrorHandler());
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    limits.configure(http);
    connector = new LocalConnector(server, new HttpConnectionFactory(http));
    server.addConnector(connector);
    AppEngineRequestHandler contract = new AppEngineRequestHandler(options);
    Handler.Wrapper body = new AppBodyHandler(limits);
    server.setHandler(contract);
    contract.setHandler(body);
    body.setHandler(app);
    server.start();
  }

  String request(String raw) throws Exception {
    return connector.getResponse(raw);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
