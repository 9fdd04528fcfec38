package dev.aerun.e2e.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.e2e.parity.ParityCase.Variant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity suite for clients talking to the runtime directly (nobody trusted), plus the one
 * documented difference between the modes: a response that overflows the 32 MiB limit after it was
 * committed. HttpConnector mode has already sent the status line and can only cut the stream short;
 * legacy mode buffers the whole response, so it can still answer a clean 500.
 */
abstract class DirectClientParityTest extends ParityTest {
  private static final ParityCase OVERFLOW_AFTER_COMMIT =
      ParityCase.request(
              "overflow-after-commit",
              "GET",
              "/generate?flush=true&bytes=" + (Corpus.LIMIT + Corpus.MIB))
          .build();

  DirectClientParityTest(String war) {
    super(war, Variant.UNTRUSTED);
  }

  Stream<Mode> everyMode() {
    return modes().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyMode")
  void responseOverflowAfterCommit(Mode mode) throws Exception {
    Exchange e = exchange(mode, OVERFLOW_AFTER_COMMIT);
    String seen = Snapshot.of(OVERFLOW_AFTER_COMMIT, e) + outputTail(mode);
    if (mode.streamsResponses()) {
      assertEquals(200, e.status(), seen);
      assertFalse(e.complete(), "the stream must be cut short:\n" + seen);
      assertTrue(e.body().length() <= Corpus.LIMIT, "sent past the limit:\n" + seen);
    } else {
      assertEquals(500, e.status(), seen);
      assertTrue(e.complete(), "the 500 must be a complete answer:\n" + seen);
      assertNull(e.error(), seen);
      String body = e.body().text();
      assertFalse(body == null || body.contains("Exception") || body.contains("dev.aerun"), seen);
    }
  }
}
