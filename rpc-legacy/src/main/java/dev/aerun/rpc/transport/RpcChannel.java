package dev.aerun.rpc.transport;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A gRPC channel to a server on an {@link RpcTransport}, and the event loop it owns. */
public final class RpcChannel implements AutoCloseable {
  private static final long GRACE_SECONDS = 5;

  private final ManagedChannel channel;
  private final RpcTransport target;
  private final List<EventLoopGroup> groups;

  RpcChannel(ManagedChannel channel, RpcTransport target, List<EventLoopGroup> groups) {
    this.channel = channel;
    this.target = target;
    this.groups = groups;
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
