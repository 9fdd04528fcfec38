package dev.aerun.bench.jmh;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.BufferUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A keep-alive {@code GET} through a whole server in memory ({@link LocalConnector}: no sockets).
 * The time per operation includes the connector's hand-over to a pool thread and its wait for the
 * response, so it is only good for comparing a benchmark's variants with each other.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class KeepAliveGetBench extends JmhSettings {
  private Server server;
  private LocalConnector.LocalEndPoint endpoint;
  private byte[] request;

  /** Each operation sends {@code request} to the started {@code server} through {@code local}. */
  void connect(Server server, LocalConnector local, String request) throws Exception {
    this.server = server;
    this.request = request.getBytes(StandardCharsets.US_ASCII);
    server.addConnector(local);
    local.start();
    endpoint = local.connect();
  }

  @Benchmark
  public ByteBuffer keepAliveGet() throws Exception {
    endpoint.addInputAndExecute(BufferUtil.toBuffer(request));
    ByteBuffer response = endpoint.waitForResponse(false, 10, TimeUnit.SECONDS);
    if (response == null) {
      throw new IllegalStateException("no response");
    }
    return response;
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    server.stop();
  }
}
