package dev.aerun.rpc.transport;

import dev.aerun.runtime.lifecycle.Durations;
import dev.aerun.runtime.server.RuntimeServer;
import io.grpc.BindableService;
import io.grpc.Server;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A gRPC server with one service on an {@link RpcTransport}, and the event loops it owns: bound
 * when it starts, closed when it stops. It is the {@link RuntimeServer.Entrance} of a runtime whose
 * front end is another process.
 */
public final class RpcServer extends AbstractLifeCycle
    implements RuntimeServer.Entrance, AutoCloseable {
  private static final Logger log = Logger.getLogger(RpcServer.class.getName());

  private final RpcTransport listen;
  private final BindableService service;
  private final int maxMessageBytes;
  private final boolean serviceNeverBlocks;
  private volatile RpcTransport.Bound bound;

  /**
   * A server, not started, for {@code service} on {@code listen}.
   *
   * @param maxMessageBytes the largest request message accepted, see {@link
   *     RpcTransport#maxMessageBytes}
   * @param serviceNeverBlocks true when {@code service} returns at once and answers from threads of
   *     its own: it then runs on the transport's thread ({@code directExecutor}), saving a thread
   *     hop per call; a service that may block must say false, or it stalls the transport
   */
  public RpcServer(
      RpcTransport listen,
      BindableService service,
      int maxMessageBytes,
      boolean serviceNeverBlocks) {
    this.listen = Objects.requireNonNull(listen, "listen");
    this.service = Objects.requireNonNull(service, "service");
    this.maxMessageBytes = maxMessageBytes;
    this.serviceNeverBlocks = serviceNeverBlocks;
  }

  /** Binds the address (a TCP port 0: a free port) and starts taking calls. */
  @Override
  protected void doStart() throws Exception {
    bound = listen.bind(service, maxMessageBytes, serviceNeverBlocks);
  }

  /**
   * Stops taking calls, lets running ones finish for a few seconds, cancels what is left, then
   * stops the event loops (and, for a Unix socket, the socket file is removed).
   */
  @Override
  protected void doStop() {
    RpcTransport.Bound running = bound;
    if (running == null) {
      return;
    }
    Server server = running.server();
    RpcTransport.shutDown(
        server::shutdown, server::shutdownNow, server::awaitTermination, running.groups());
  }

  /**
   * Takes no new calls and waits up to {@code grace} for the running ones to finish; {@link
   * #stop()} next cancels what is left.
   *
   * @return true if every call finished in time
   */
  @Override
  public boolean drain(Duration grace) throws InterruptedException {
    Server server = server();
    server.shutdown();
    boolean done = server.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS);
    if (!done) {
      log.warning(
          "shutdown: calls still running at the end of the "
              + Durations.format(grace)
              + " grace period; ending them");
    }
    return done;
  }

  /** Stops the server (see {@link #doStop()}). */
  @Override
  public void close() {
    RpcTransport.stop(this);
  }

  /**
   * Where clients reach this server once started: the transport it was started on, with the bound
   * port when a TCP port 0 was asked for.
   */
  public RpcTransport address() {
    return started().address();
  }

  /** The address it is bound to, in the form {@link RpcTransport#parse} reads. */
  @Override
  public String endpoint() {
    return address().toString();
  }

  /** The gRPC server once started. */
  public Server server() {
    return started().server();
  }

  /** Blocks until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server().awaitTermination();
  }

  private RpcTransport.Bound started() {
    RpcTransport.Bound running = bound;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    return running;
  }

  @Override
  public String toString() {
    RpcTransport.Bound running = bound;
    return "RpcServer[" + (running == null ? listen : running.address()) + "]";
  }
}
