package dev.aerun.rpc;

import dev.aerun.rpc.runtime.RpcRuntime;
import dev.aerun.rpc.transport.RpcServer;
import dev.aerun.rpc.transport.RpcTransport;
import dev.aerun.runtime.contract.RequestLimits;
import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.load.Capacity;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;

/**
 * The runtime half of legacy mode on its own: the app deployed on an {@link RpcRuntime}, whose
 * {@code EvaluationRuntime} service is served on a transport for a front end to call, in this JVM
 * ({@link LegacyRpcServer}) or another process ({@link LegacyRpcFront}).
 */
public final class LegacyRpcRuntimeServer {
  private static final Logger log = Logger.getLogger(LegacyRpcRuntimeServer.class.getName());

  private final Spec spec;
  private final RpcRuntime runtime;
  private volatile RpcServer rpcServer;

  /**
   * What to serve, and where. Immutable.
   *
   * @param app the app's handler, e.g. the webapp context
   * @param limits body size limits; also size the largest gRPC message
   * @param capacity the runtime's request threads (the front end enforces the concurrency limit)
   * @param listen where to serve gRPC; a TCP port 0 picks a free one (see {@link #address()})
   * @param captureAppLogs whether answers carry the app's log lines for the front end to log (see
   *     {@link RpcRuntime.Spec}): true when the front end is another process
   */
  public record Spec(
      Handler app,
      RequestLimits limits,
      Capacity capacity,
      RpcTransport listen,
      boolean captureAppLogs) {
    public Spec {
      Objects.requireNonNull(app, "app");
      Objects.requireNonNull(limits, "limits");
      Objects.requireNonNull(listen, "listen");
    }

    /** A runtime for a front end in another process: answers carry the app's log lines. */
    public Spec(Handler app, RequestLimits limits, Capacity capacity, RpcTransport listen) {
      this(app, limits, capacity, listen, true);
    }
  }

  public LegacyRpcRuntimeServer(Spec spec) {
    this.spec = spec;
    this.runtime =
        new RpcRuntime(
            new RpcRuntime.Spec(spec.app(), spec.limits(), spec.capacity(), spec.captureAppLogs()));
  }

  /**
   * Deploys the app, then starts serving gRPC: no call can reach a half-deployed app. If either
   * fails, whatever started is stopped again.
   */
  public void start() throws Exception {
    runtime.start();
    try {
      // The runtime's service hands each call to its own threads and returns at once.
      rpcServer =
          spec.listen()
              .startServer(runtime.service(), RpcTransport.maxMessageBytes(spec.limits()), true);
    } catch (Exception | Error e) {
      try {
        runtime.stop();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Stops serving gRPC (letting running calls finish for a few seconds), then the app. */
  public void stop() throws Exception {
    RpcServer server = rpcServer;
    rpcServer = null;
    if (server != null) {
      server.close();
    }
    runtime.stop();
  }

  /**
   * Takes no new calls and waits up to {@code grace} for the running ones to finish; {@link
   * #stop()} next cancels what is left.
   *
   * @return true if every call finished in time
   */
  public boolean drain(Duration grace) throws InterruptedException {
    RpcServer server = rpcServer;
    if (server == null) {
      return true;
    }
    server.server().shutdown();
    boolean done = server.server().awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS);
    if (!done) {
      log.warning(
          "shutdown: calls still running at the end of the "
              + Durations.format(grace)
              + " grace period; ending them");
    }
    return done;
  }

  /** Blocks until the gRPC server has terminated (see {@link #stop()}). */
  public void join() throws InterruptedException {
    RpcServer server = rpcServer;
    if (server != null) {
      server.awaitTermination();
    }
  }

  /** Where front ends reach this runtime once started: the bound port for a TCP port 0. */
  public RpcTransport address() {
    RpcServer server = rpcServer;
    if (server == null) {
      throw new IllegalStateException("not started");
    }
    return server.address();
  }

  public RpcRuntime runtime() {
    return runtime;
  }

  public Spec spec() {
    return spec;
  }
}
