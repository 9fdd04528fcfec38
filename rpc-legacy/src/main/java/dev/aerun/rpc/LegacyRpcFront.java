package dev.aerun.rpc;

import dev.aerun.rpc.front.FrontServer;
import dev.aerun.rpc.transport.RpcChannel;
import dev.aerun.rpc.transport.RpcTransport;
import java.time.Duration;
import java.util.Objects;

/**
 * The front half of legacy mode on its own: the public {@link FrontServer} with a channel to a
 * runtime at {@code target}, in this JVM or another process ({@link LegacyRpcRuntimeServer}).
 *
 * <p>The channel connects lazily: a front end whose runtime is not (yet) reachable starts, and
 * answers 503 until it is.
 */
public final class LegacyRpcFront {
  private final Spec spec;
  private volatile RpcChannel channel;
  private volatile FrontServer front;

  /**
   * What to serve, and where the runtime is. Immutable.
   *
   * @param front the public server's settings
   * @param target where the runtime serves gRPC
   */
  public record Spec(FrontServer.Spec front, RpcTransport target) {
    public Spec {
      Objects.requireNonNull(front, "front");
      Objects.requireNonNull(target, "target");
    }
  }

  public LegacyRpcFront(Spec spec) {
    this.spec = spec;
  }

  /** Opens the channel to the runtime, then the public port. */
  public void start() throws Exception {
    RpcChannel opened =
        spec.target().openChannel(RpcTransport.maxMessageBytes(spec.front().server().limits()));
    FrontServer server = new FrontServer(spec.front(), opened.channel());
    try {
      server.start();
    } catch (Exception | Error e) {
      opened.close();
      throw e;
    }
    channel = opened;
    front = server;
  }

  /** Drains the public server (see {@link FrontServer#drain}); true if nothing was left. */
  public boolean drain(Duration grace) throws InterruptedException {
    FrontServer server = front;
    return server == null || server.drain(grace);
  }

  /** Closes the public port (Jetty lets requests in progress finish), then the channel. */
  public void stop() throws Exception {
    FrontServer server = front;
    RpcChannel opened = channel;
    front = null;
    channel = null;
    try {
      if (server != null) {
        server.stop();
      }
    } finally {
      if (opened != null) {
        opened.close();
      }
    }
  }

  /** Blocks until the public server has stopped. */
  public void join() throws InterruptedException {
    FrontServer server = front;
    if (server != null) {
      server.server().join();
    }
  }

  /** The bound public port once started. */
  public int port() {
    FrontServer server = front;
    if (server == null) {
      throw new IllegalStateException("not started");
    }
    return server.port();
  }

  /** The public server once started, else null. */
  public FrontServer frontServer() {
    return front;
  }

  public Spec spec() {
    return spec;
  }
}
