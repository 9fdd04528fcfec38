package dev.aerun.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reliability profile's plumbing, run as users run it, briefly: SIGTERM under a low rate on
 * HttpConnector mode, then the report. Figures and verdicts are not asserted (a loaded machine may
 * miss a criterion); that every criterion has a verdict and the report is well formed is.
 */
class ReliabilitySmokeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static Path repo() {
    return Path.of(System.getProperty("aerun.bench.repo", "../.."));
  }

  @Test
  void sigtermPart_writesResultsAndSummaryWithAVerdictPerCriterion() throws Exception {
    Path out = dir.resolve("results");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int exit =
        ReliabilityMain.run(
            new String[] {
              "--parts", "sigterm", "--peers", "http", "--capacity", "100", "--out", out.toString()
            },
            repo(),
            new PrintStream(progress, true, StandardCharsets.UTF_8));

    String said = progress.toString(StandardCharsets.UTF_8);
    assertTrue(exit == 0 || exit == 1, "exit " + exit + ": " + said);
    JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
    assertEquals(0, results.path("failures").size(), results.path("failures").toString());
    JsonNode row = results.path("sigterm").path(0);
    assertEquals("http", row.path("peer").asText());
    assertTrue(row.path("sent").asLong() > 0, row.toString());
    assertTrue(row.path("inFlight").isObject() && row.path("after").isObject(), row.toString());
    List<String> criteria = new ArrayList<>();
    for (JsonNode criterion : results.path("criteria")) {
      assertTrue(criterion.path("pass").isBoolean(), criterion.toString());
      criteria.add(criterion.path("part").asText());
    }
    assertEquals(List.of("sigterm", "sigterm", "sigterm"), criteria);
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.startsWith("# Reliability\n"), summary);
    assertTrue(summary.contains("## Criteria\n"), summary);
    assertTrue(summary.contains("## SIGTERM under load\n"), summary);
    assertTrue(said.contains("http: SIGTERM in flight"), said);
  }

  @Test
  void wrongCommandLine_exits2_help_exits0() {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertEquals(2, ReliabilityMain.run(new String[] {"--parts", "nap"}, repo(), quiet));
    assertEquals(2, ReliabilityMain.run(new String[] {"--peers", "bare"}, repo(), quiet));
    assertEquals(2, ReliabilityMain.run(new String[] {"--soak-minutes", "-1"}, repo(), quiet));
    assertEquals(0, ReliabilityMain.run(new String[] {"--help"}, repo(), quiet));
  }
}
