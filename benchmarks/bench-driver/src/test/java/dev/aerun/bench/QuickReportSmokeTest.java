package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's smoke test of the benchmarks: the quick profile's smallest scenario (echo of 32 KiB, EE10)
 * against every peer, in two server JVMs each (legacy mode's peers in one), and one more given with
 * {@code --peer} (bare Jetty's jar launched through the command template), then a short soak of
 * them all, run as users run it, then checks that the report is there and well formed. It asserts
 * nothing about the figures: timings and ratios are never test assertions.
 */
class QuickReportSmokeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> PEERS =
      List.of("bare", "http", "legacy", "legacy-tcp", "bare-again");

  @TempDir static Path dir;
  static Path out;

  @BeforeAll
  static void runQuickEcho() {
    out = dir.resolve("results");
    Path bareJar = BenchMain.defaultRepo().resolve("benchmarks/bare-jetty/target/bare-jetty.jar");
    int exit =
        BenchMain.run(
            new String[] {
              "--quick",
              "--scenarios",
              "echo,soak",
              "--soak-minutes",
              "0.2",
              "--soak-rate",
              "50",
              "--echo-sizes",
              "32k",
              "--ee",
              "ee10",
              "--echo-rounds",
              "2",
              "--peer",
              "bare-again={java} {jvm-flags} -jar '"
                  + bareJar
                  + "' --ee ee10 --port {port} --address 127.0.0.1 {war}",
              "--out",
              out.toString()
            });
    assertEquals(0, exit, "the driver's exit code");
  }

  @Test
  void aCustomPeer_runsItsOwnCommand() throws Exception {
    // The template's server (bare Jetty's jar), in each of its JVMs: not the runtime jar.
    for (String log : List.of("bare-again-ee10-main.log", "bare-again-ee10-echo-2.log")) {
      String output = Files.readString(out.resolve("logs").resolve(log));
      assertTrue(output.contains(" on bare Jetty "), log + ":\n" + output);
    }
  }

  @Test
  void resultsJson_hasEveryPeerAndTheEchoScenario() throws Exception {
    JsonNode results = JSON.readTree(out.resolve("results.json").toFile());

    assertEquals("quick", results.path("meta").path("profile").asText());
    assertEquals(PEERS, ids(results.path("peers"), "id"));
    assertEquals(0, results.path("failures").size(), "failures: " + results.path("failures"));
    JsonNode echo = results.path("echo");
    // Every peer in its first server JVM, then all but legacy mode's in a second one.
    List<String> rows = new ArrayList<>(PEERS);
    rows.addAll(List.of("bare", "http", "bare-again"));
    assertEquals(rows, ids(echo, "peer"));
    assertEquals(List.of("1", "1", "1", "1", "1", "2", "2", "2"), ids(echo, "round"));
    for (JsonNode row : echo) {
      assertEquals("ee10", row.path("ee").asText());
      assertEquals(32 * 1024, row.path("size").asLong());
      assertTrue(row.path("allocatedBytesPerRequest").isNumber(), row.toString());
      assertTrue(row.path("heapAfterGcBytes").isNumber(), row.toString());
      assertTrue(row.path("requests").asInt() > 0, row.toString());
    }
    // The soak: every peer, side by side, sampled after the warm-up and after its interval.
    assertEquals(PEERS, ids(results.path("soak"), "peer"));
    for (JsonNode row : results.path("soak")) {
      assertTrue(row.path("sent").asLong() > 0, row.toString());
      assertEquals(2, row.path("samples").size(), row.toString());
      assertTrue(row.path("samples").path(1).path("heapAfterGcBytes").asLong() > 0, row.toString());
      assertTrue(row.path("samples").path(1).path("fds").asInt() > 0, row.toString());
    }
    JsonNode targets = results.path("targets");
    assertEquals(12, targets.size());
    for (JsonNode target : targets) {
      assertTrue(
          Set.of(
                  "met",
                  "missed",
                  "within noise",
                  "not measured",
                  "not measurable on this machine",
                  "not resolved in the quick profile")
              .contains(target.path("verdict").asText()),
          target.toString());
    }
  }

  @Test
  void summary_hasTheTargetsAndOneTablePerFigure() throws Exception {
    String summary = Files.readString(out.resolve("summary.md"));

    assertTrue(summary.startsWith("# aerun benchmarks: quick profile"), summary);
    assertTrue(summary.contains("## Targets\n\n"));
    assertTrue(summary.contains("| Target | This run | Verdict |\n|---|---|---|\n"));
    String header =
        "| Size | bare Jetty | HttpConnector | legacy | legacy (tcp) | bare-again"
            + " | HttpConnector / bare | legacy / HttpConnector | legacy (tcp) / HttpConnector"
            + " | bare-again / bare |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            + "| 32 KiB |";
    assertTrue(
        summary.contains("## Echo: bytes allocated per request, whole server process (EE10)"));
    assertTrue(summary.contains("## Echo: heap in use after a full GC inside the servlet (EE10)"));
    assertTrue(
        summary.contains(
            "| Size | bare Jetty | HttpConnector | legacy | legacy (tcp) | bare-again |\n"));
    // Allocation and heap mid-echo (the part of it held for the request has no ratios).
    assertEquals(2, summary.split(java.util.regex.Pattern.quote(header), -1).length - 1, summary);
    assertTrue(
        summary.contains("Per server JVM (each the median of its windows), lowest to highest:"),
        summary);
    assertTrue(summary.contains("![echo-allocation-ee10.svg](charts/echo-allocation-ee10.svg)"));
    assertTrue(summary.contains("## Soak: hello at a steady rate\n"), summary);
    assertTrue(summary.contains("| Heap after GC, growth (last third − first) |"), summary);
  }

  @Test
  void charts_areNonEmptyWellFormedSvg() throws Exception {
    for (String chart : List.of("echo-allocation-ee10.svg", "echo-heap-ee10.svg")) {
      Path file = out.resolve("charts").resolve(chart);
      assertTrue(Files.size(file) > 0, chart);
      var document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
      assertEquals("svg", document.getDocumentElement().getTagName(), chart);
      assertTrue(document.getElementsByTagName("rect").getLength() > PEERS.size(), chart);
    }
  }

  private static List<String> ids(JsonNode array, String field) {
    List<String> ids = new ArrayList<>();
    array.forEach(node -> ids.add(node.path(field).asText()));
    return ids;
  }
}
