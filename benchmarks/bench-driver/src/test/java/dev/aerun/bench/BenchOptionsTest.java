package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line, read through the help text's table of options. */
class BenchOptionsTest {
  @TempDir Path repo;

  @Test
  void theLastProfileGivenWins() throws Exception {
    assertEquals("full", parse("--quick", "--full").profile().name());
    assertEquals("quick", parse("--full", "--quick").profile().name());
    assertEquals("full", parse().profile().name());
  }

  @Test
  void everyValueOptionOfTheHelpTakesItsValue() throws Exception {
    BenchOptions options =
        parse(
            "--quick",
            "--peers",
            "http,bare",
            "--scenarios",
            "echo",
            "--echo-sizes",
            "1m",
            "--echo-rounds",
            "2",
            "--ee",
            "ee8",
            "--jvm-flags",
            " -Xmx2g  -Xms2g ",
            "--p99-bound-ms",
            "20",
            "--soak-minutes",
            "0.5",
            "--soak-rate",
            "50",
            "--max-steal",
            "5",
            "--accept-encoding",
            "gzip",
            "--out",
            "x",
            "--jfr");
    assertEquals(List.of(Peer.HTTP, Peer.BARE), options.peers());
    assertEquals(List.of(Scenario.ECHO), options.scenarios());
    assertEquals(List.of(1024L * 1024), options.echoSizes());
    assertEquals(2, options.echoRounds());
    assertEquals(List.of("ee8"), options.ees());
    assertEquals(
        List.of("-Xmx2g", "-Xms2g", "-XX:FlightRecorderOptions:stackdepth=512"),
        options.jvmFlags());
    assertEquals(20, options.p99BoundMillis());
    assertEquals(30, options.soak().toSeconds());
    assertEquals(50, options.soakRate());
    assertEquals(5, options.maxStealPercent());
    assertEquals("gzip", options.acceptEncoding());
    assertEquals(Path.of("x").toAbsolutePath(), options.out());
    assertEquals(1, parse("--quick").echoRounds(), "the profile's default");
  }

  @Test
  void wrongCommandLines_sayWhatIsWrong() {
    assertMessage("unknown option '--bogus'", "--bogus");
    assertMessage("unknown option '-x'", "-x");
    assertMessage("--out needs a value", "--quick", "--out");
    assertMessage("--echo-rounds: expected a number from 1, got '0'", "--echo-rounds", "0");
    assertMessage("--ee: expected one of ee10, ee8, ee11, got 'ee9'", "--ee", "ee10,ee9");
    assertMessage("--soak-rate: expected a positive number, got '-1'", "--soak-rate", "-1");
    assertMessage("unknown peer 'tomcat'", "--peers", "tomcat");
    assertMessage("must not be empty", "--scenarios", ",");
  }

  private BenchOptions parse(String... args) throws BenchOptions.UsageException {
    return BenchOptions.parse(args, repo);
  }

  private void assertMessage(String expected, String... args) {
    BenchOptions.UsageException e =
        assertThrows(BenchOptions.UsageException.class, () -> parse(args));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
