package dev.aerun.e2e.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.aerun.e2e.parity.ParityCase.Variant;
import dev.aerun.testing.RuntimeProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity suite (docs/REQUESTS.md): the {@link Corpus} sent to a reference runtime and to each
 * other configuration, for one sample app and one trust variant; every difference between the
 * answers, field by field, fails that case.
 *
 * <p>The configurations come from {@code -Daerun.parity.modes} (see {@link Mode}): one runtime per
 * mode, all started once for the class, on port 0 of 127.0.0.1; an h2c mode asks the runtime of the
 * HTTP/1.1 mode with its options over HTTP/2 and is compared with the reference on what both
 * transports share ({@link Snapshot#acrossTransports}). A mode whose runtime cannot start fails
 * each of its cases with the runtime's output; it is never skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ParityTest {
  private final String war;
  private final Variant variant;
  private final List<Mode> modes = Mode.selected();
  private final Map<String, RuntimeProcess> runtimes = new LinkedHashMap<>();
  private final Map<String, Snapshot> reference = new ConcurrentHashMap<>();
  private final Map<String, AssertionError> startFailures = new ConcurrentHashMap<>();

  ParityTest(String war, Variant variant) {
    this.war = war;
    this.variant = variant;
  }

  @BeforeAll
  void startRuntimes() throws Exception {
    // All at once: the JVMs start in parallel; each test waits only for the runtimes it uses.
    for (Mode mode : modes) {
      RuntimeProcess shared = mode.h2c() ? sameOptions(mode) : null;
      if (shared != null) {
        runtimes.put(mode.name(), shared);
        continue;
      }
      RuntimeProcess.Launch launch =
          RuntimeProcess.launch(ExplodedApps.of(war)).args(mode.args().toArray(String[]::new));
      if (variant == Variant.FORWARDING) {
        launch.args("--forwarded-from", "127.0.0.1");
      } else if (variant != Variant.UNTRUSTED) {
        launch.args("--trusted-proxies", "127.0.0.1");
      }
      if (variant == Variant.ALL_HEADERS) {
        launch.property("appengine.use.allheaders", "true");
      }
      runtimes.put(mode.name(), launch.start());
    }
  }

  /** The runtime of an HTTP/1.1 mode with {@code mode}'s options, or null if none runs. */
  private RuntimeProcess sameOptions(Mode mode) {
    for (Mode other : modes) {
      if (!other.h2c() && other.args().equals(mode.args()) && runtimes.containsKey(other.name())) {
        return runtimes.get(other.name());
      }
    }
    return null;
  }

  @AfterAll
  void stopRuntimes() {
    new java.util.LinkedHashSet<>(runtimes.values()).forEach(RuntimeProcess::close);
  }

  Stream<Arguments> comparisons() {
    Mode referenceMode = modes.get(0);
    List<Arguments> arguments = new ArrayList<>();
    for (Mode mode : modes.subList(1, modes.size())) {
      for (ParityCase c : Corpus.cases(variant)) {
        if (mode.h2c() && H2cClient.cannotSend(c).isPresent()) {
          continue; // no HTTP/2 form: H2cCorpusTest holds these few to their reasons
        }
        arguments.add(Arguments.of(Named.of(mode.name() + " vs " + referenceMode.name(), mode), c));
      }
    }
    return arguments.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("comparisons")
  void sameAsReference(Mode mode, ParityCase c) throws Exception {
    Mode referenceMode = modes.get(0);
    if (mode.h2c()
        && !referenceMode.h2c()
        && war.contains("ee8")
        && c.expectedStatuses().equals(Set.of(405))) {
      // javax.servlet's HttpServlet answers an unimplemented method with 405 only when
      // getProtocol() ends in 1.1, else 400: the app itself tells the protocols apart.
      Exchange got = exchange(mode, c);
      assertEquals(400, got.status(), c.name() + "\n" + Snapshot.of(c, got));
      return;
    }
    Snapshot expected = referenceSnapshot(referenceMode, c);
    Exchange got = exchange(mode, c);
    Snapshot actual = Snapshot.of(c, got);
    record(mode, c, actual);
    checkStatus(mode, c, got);
    List<String> differences =
        mode.h2c() == referenceMode.h2c()
            ? Snapshot.differences(expected, referenceMode.name(), actual, mode.name())
            : Snapshot.differences(
                expected.acrossTransports(),
                referenceMode.name(),
                actual.acrossTransports(),
                mode.name());
    if (!differences.isEmpty()) {
      fail(
          c.name()
              + ": "
              + differences.size()
              + " difference(s) between "
              + referenceMode.name()
              + " and "
              + mode.name()
              + " ("
              + describe(c)
              + "):\n  "
              + String.join("\n  ", differences)
              + outputTail(mode));
    }
  }

  /** The reference's answer to a case, fetched once for every mode compared with it. */
  private Snapshot referenceSnapshot(Mode referenceMode, ParityCase c) throws Exception {
    Snapshot cached = reference.get(c.name());
    if (cached != null) {
      return cached;
    }
    Exchange exchange = exchange(referenceMode, c);
    checkStatus(referenceMode, c, exchange);
    Snapshot snapshot = Snapshot.of(c, exchange);
    record(referenceMode, c, snapshot);
    reference.put(c.name(), snapshot);
    return snapshot;
  }

  /**
   * Keeps every snapshot in {@code target/parity-snapshots/<class>/<mode>/<case>.txt}, so two
   * modes' answers can be diffed as files after a run.
   */
  private void record(Mode mode, ParityCase c, Snapshot snapshot) throws IOException {
    Path dir =
        Path.of(System.getProperty("aerun.apps.dir", "target/apps"))
            .toAbsolutePath()
            .resolveSibling("parity-snapshots")
            .resolve(getClass().getSimpleName())
            .resolve(mode.name());
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(c.name() + ".txt"), snapshot.dump());
  }

  /** Sends a case to a mode's runtime; fails with its output if it did not start. */
  Exchange exchange(Mode mode, ParityCase c) throws Exception {
    if (mode.h2c()) {
      Optional<String> cannot = H2cClient.cannotSend(c);
      if (cannot.isPresent()) {
        fail(c.name() + " has no HTTP/2 form: " + cannot.get());
      }
      return H2cClient.exchange(c, port(mode));
    }
    return RawClient.exchange(c, port(mode));
  }

  /**
   * The port a mode's runtime serves on. A runtime that did not start fails every case of its mode,
   * each at once with the same error: waiting the start-up timeout once is enough.
   */
  private int port(Mode mode) {
    AssertionError failed = startFailures.get(mode.name());
    if (failed == null) {
      try {
        return runtimes.get(mode.name()).port();
      } catch (IllegalStateException e) {
        failed =
            new AssertionError(
                "the "
                    + mode.name()
                    + " runtime ("
                    + String.join(" ", mode.args())
                    + ") did not start: "
                    + e.getMessage(),
                e);
        startFailures.put(mode.name(), failed);
      }
    }
    throw failed;
  }

  /** Every configuration must answer what the corpus says, or the comparison proves nothing. */
  private void checkStatus(Mode mode, ParityCase c, Exchange e) {
    if (!c.expectedStatuses().contains(e.status())) {
      fail(
          c.name()
              + ": "
              + mode.name()
              + " answered "
              + (e.statusLine() == null ? "nothing (" + e.error() + ")" : e.statusLine())
              + ", the corpus expects "
              + c.expectedStatuses()
              + " ("
              + describe(c)
              + ")\n"
              + Snapshot.of(c, e)
              + outputTail(mode));
    }
  }

  List<Mode> modes() {
    return modes;
  }

  private static String describe(ParityCase c) {
    if (c.isRaw()) {
      String text = c.raw().replace("\r", "\\r").replace("\n", "\\n");
      return "raw request '" + (text.length() > 120 ? text.substring(0, 120) + "…" : text) + "'";
    }
    String target = c.target().length() > 120 ? c.target().substring(0, 120) + "…" : c.target();
    return c.method()
        + " "
        + target
        + ", "
        + c.headers().size()
        + " header(s), "
        + c.body().describe();
  }

  /** The last lines the runtime printed, to show with a failure. */
  String outputTail(Mode mode) {
    String[] lines = runtimes.get(mode.name()).output().split("\n");
    int from = Math.max(0, lines.length - 20);
    StringBuilder out =
        new StringBuilder("\n---- last lines of the " + mode.name() + " runtime ----\n");
    for (int i = from; i < lines.length; i++) {
      out.append(lines[i]).append('\n');
    }
    return out.toString();
  }
}
