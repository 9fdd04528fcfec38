package dev.aerun.bench;

import dev.aerun.testing.ResponseParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** One keep-alive connection of {@link NioLoad}. */
final class NioConn {
  final SocketChannel channel;
  final ByteBuffer out;
  final ResponseParser parser = new ResponseParser();
  long intended;
  long sentAt;
  volatile boolean busy;
  // When it last finished a response (or was opened).
  volatile long lastDone = System.nanoTime();

  NioConn(SocketChannel channel, ByteBuffer out) {
    this.channel = channel;
    this.out = out;
  }

  void close() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Closing.
    }
  }
}
