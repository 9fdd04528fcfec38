package dev.aerun.rpc.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.runtime.load.BodyMemory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BodyBufferTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void aDeclaredLengthAllocatesNothingBeforeTheBytesArrive() {
    BodyMemory memory = new BodyMemory(64 * MIB);
    BodyBuffer body = new BodyBuffer(memory.requests());

    // 32 MiB announced, 10 bytes arrived: one block of at most 64 KiB is held, not 32 MiB.
    assertTrue(body.append(ByteBuffer.wrap(new byte[10]), 10, 32 * MIB));

    assertTrue(memory.used() <= BodyBuffer.MAX_BLOCK, "reserved " + memory.used());
    body.release();
    assertEquals(0, memory.used());
  }

  @Test
  void bytesRoundTripThroughBlocksWithoutACopyOfTheWhole() {
    BodyMemory memory = new BodyMemory(64 * MIB);
    BodyBuffer body = new BodyBuffer(memory.requests());
    byte[] data = new byte[(int) (3 * MIB + 123)];
    new Random(1).nextBytes(data);
    ByteBuffer source = ByteBuffer.wrap(data);
    while (source.hasRemaining()) {
      int n = Math.min(16 * 1024 + 7, source.remaining());
      assertTrue(body.append(source, n, data.length - body.size()));
    }

    assertArrayEquals(data, body.toByteString().toByteArray());
    assertEquals(data.length, body.size());
    // Blocks sized to what remains: no more than one block of slack.
    assertTrue(memory.used() < data.length + BodyBuffer.MAX_BLOCK, "reserved " + memory.used());
  }

  @Test
  void theBudgetRefusesBeyondItsLimit_andReleasedMemoryServesTheNext() {
    // 512 KiB: 256 KiB for requests, of which half is kept back for the one body in front.
    BodyMemory memory = new BodyMemory(512 * 1024);
    BodyBuffer first = new BodyBuffer(memory.requests());
    BodyBuffer second = new BodyBuffer(memory.requests());
    byte[] block = new byte[64 * 1024];
    for (int i = 0; i < 4; i++) {
      assertTrue(first.append(ByteBuffer.wrap(block), block.length, -1));
    }

    assertFalse(second.append(ByteBuffer.wrap(block), block.length, -1));

    first.release();
    assertTrue(second.append(ByteBuffer.wrap(block), block.length, -1));
    second.release();
    assertEquals(0, memory.used());
  }
}
