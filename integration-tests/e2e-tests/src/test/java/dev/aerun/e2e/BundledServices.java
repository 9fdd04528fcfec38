package dev.aerun.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.time.Duration;

/** Reads the sample bundled-services app's {@code name=value} answers. */
final class BundledServices {
  private BundledServices() {}

  /** {@code GET /api/PATH}: its body, asserted 200. */
  static String call(RuntimeProcess runtime, String path, String... headers) throws IOException {
    RawResponse response = RawResponse.get(runtime.port(), "/api/" + path, headers);
    assertEquals(200, response.status(), response.body());
    return response.body();
  }

  /** The value of the first {@code name=} line of {@code body}. */
  static String value(String body, String name) {
    for (String line : body.split("\n")) {
      if (line.startsWith(name + "=")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new AssertionError("no " + name + " in " + body);
  }

  /**
   * What the task {@code id} saw when it ran, waiting for it (tasks run on the queue's schedule).
   */
  static String seenBlocking(RuntimeProcess runtime, String id, Duration patience)
      throws IOException, InterruptedException {
    long end = System.nanoTime() + patience.toNanos();
    while (true) {
      String seen = value(call(runtime, "seen?id=" + id), "seen");
      if (!seen.equals("null") || System.nanoTime() > end) {
        return seen;
      }
      Thread.sleep(100);
    }
  }
}
