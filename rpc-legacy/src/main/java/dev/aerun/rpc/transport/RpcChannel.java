package dev.aerun.rpc.transport;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A gRPC channel to a server on an {@link RpcTransport}, and the event loop it owns. */
public final class RpcChannel implements AutoCloseable {
  private static final long GRACE_SECONDS = 5;

  /**
   * How soon a socket channel that failed to connect tries again. gRPC's own backoff grows to two
   * minutes (already about 8 s after a few failures): a front end started before its runtime, or
   * whose runtime restarted, would answer 503 long after the runtime serves again.
   */
  static final long RECONNECT_MILLIS = 250;

  private final ManagedChannel channel;
  private final RpcTransport target;
  private final List<EventLoopGroup> groups;

  RpcChannel(ManagedChannel channel, RpcTransport target, List<EventLoopGroup> groups) {
    this.channel = channel;
    this.target = target;
    this.groups = groups;
  }

  /**
   * A socket channel that keeps trying to connect every {@value #RECONNECT_MILLIS} ms while it
   * cannot (rather than after gRPC's growing backoff), on {@code scheduler}.
   */
  static RpcChannel reconnecting(
      ManagedChannel channel,
      RpcTransport target,
      List<EventLoopGroup> groups,
      ScheduledExecutorService scheduler) {
    watch(channel, scheduler);
    return new RpcChannel(channel, target, groups);
  }

  /** Each time the channel fails to connect, skips the rest of its backoff a moment later. */
  private static void watch(ManagedChannel channel, ScheduledExecutorService scheduler) {
    ConnectivityState state = channel.getState(false);
    if (state == ConnectivityState.SHUTDOWN) {
      return;
    }
    if (state == ConnectivityState.TRANSIENT_FAILURE) {
      try {
        scheduler.schedule(channel::resetConnectBackoff, RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        return; // closing
      }
    }
    channel.notifyWhenStateChanged(state, () -> watch(channel, scheduler));
  }

  /** The channel to make calls on. */
  public ManagedChannel channel() {
    return channel;
  }

  /** Where the channel connects to. */
  public RpcTransport target() {
    return target;
  }

  /** Lets running calls finish for a few seconds, cancels the rest, then stops the event loop. */
  @Override
  public void close() {
    channel.shutdown();
    try {
      if (!channel.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
        channel.shutdownNow();
        channel.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
    RpcServer.shutdownGroups(groups);
  }

  @Override
  public String toString() {
    return "RpcChannel[" + target + "]";
  }
}
