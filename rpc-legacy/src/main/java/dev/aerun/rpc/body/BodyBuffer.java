package dev.aerun.rpc.body;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.aerun.runtime.load.BodyMemory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A body buffered whole, as legacy mode holds request and response bodies: blocks allocated as the
 * bytes arrive (never the declared length up front, never a grown copy of the whole), each reserved
 * in a {@link BodyMemory.Pool} before it is allocated; when the pool has no room, {@link
 * #awaitRoom} waits for it. {@link #toByteString()} shares the blocks with the message instead of
 * copying them. Not thread-safe: one writer at a time.
 */
public final class BodyBuffer {
  /**
   * The largest block: big enough to cost little per byte, small enough to stay out of G1's way.
   */
  static final int MAX_BLOCK = 64 * 1024;

  /** The smallest block allocated when the size to come is unknown. */
  static final int MIN_BLOCK = 4 * 1024;

  private final BodyMemory.Pool memory;
  private final BodyMemory.Holder holder = new BodyMemory.Holder();
  private final List<byte[]> blocks = new ArrayList<>();
  private byte[] current;
  private int currentSize;
  private long size;
  private long reserved;
  // A block reserved for us while we waited (see awaitRoom), not allocated yet.
  private long granted;
  private int refusedBlock;
  private boolean released;

  /** A buffer whose blocks count against {@code memory}, its holder arriving now. */
  public BodyBuffer(BodyMemory.Pool memory) {
    this.memory = memory;
  }

  /**
   * Copies {@code length} bytes from {@code bytes} (which the caller may reuse afterwards).
   *
   * @param expected how many more bytes the body is expected to have from here, counting these
   *     (e.g. what is left of its {@code Content-Length}), or -1 if unknown: sizes the next block
   * @return false if the budget had no room for the next block: what fitted was copied, the rest of
   *     {@code length} was not ({@code bytes} is left at the first byte not copied); {@link
   *     #awaitRoom} then
   */
  public boolean append(ByteBuffer bytes, int length, long expected) {
    int left = length;
    while (left > 0) {
      if (current == null || currentSize == current.length) {
        long hint = Math.max(expected - (length - left), left);
        int block = (int) Math.min(MAX_BLOCK, Math.max(expected < 0 ? MIN_BLOCK : 1, hint));
        if (granted > 0) {
          block = (int) granted; // what we waited for
          granted = 0;
        } else if (!memory.tryReserve(block, holder)) {
          refusedBlock = block;
          return false;
        }
        reserved += block;
        if (current != null) {
          blocks.add(current);
        }
        current = new byte[block];
        currentSize = 0;
      }
      int n = Math.min(left, current.length - currentSize);
      bytes.get(current, currentSize, n);
      currentSize += n;
      size += n;
      left -= n;
    }
    return true;
  }

  /**
   * After {@link #append} returned false: waits, never blocking, for the block it could not
   * reserve, in the order the bodies' requests arrived; then runs {@code granted} (append the rest
   * again), or {@code refused} if the wait took too long or the block can never fit (the request's
   * answer is then 503). One of them runs on {@code executor}.
   */
  public void awaitRoom(
      Executor executor, Scheduler scheduler, Runnable granted, Runnable refused) {
    long block = refusedBlock;
    memory.await(
        block,
        holder,
        executor,
        scheduler,
        () -> {
          if (took(block)) {
            granted.run();
          }
        },
        refused);
  }

  /** Takes the block granted while we waited; false (giving it back) if released meanwhile. */
  private synchronized boolean took(long block) {
    if (released) {
      memory.release(block);
      return false;
    }
    granted = block;
    return true;
  }

  /** The body is complete: it needs no more room (see {@link BodyMemory.Pool#finished}). */
  public void finish() {
    memory.finished(holder);
  }

  /** Bytes held. */
  public long size() {
    return size;
  }

  /** The bytes as one message field, sharing the blocks: they must not change afterwards. */
  public ByteString toByteString() {
    if (size == 0) {
      return ByteString.EMPTY;
    }
    ByteString bytes = ByteString.EMPTY;
    for (byte[] block : blocks) {
      bytes = bytes.concat(UnsafeByteOperations.unsafeWrap(block));
    }
    return bytes.concat(UnsafeByteOperations.unsafeWrap(current, 0, currentSize));
  }

  /** Gives the reserved bytes back to the budget; call once the bytes are no longer held. */
  public synchronized void release() {
    released = true;
    memory.cancel(holder);
    long bytes = reserved + granted;
    reserved = 0;
    granted = 0;
    memory.finished(holder);
    if (bytes > 0) {
      memory.release(bytes);
    }
  }
}
