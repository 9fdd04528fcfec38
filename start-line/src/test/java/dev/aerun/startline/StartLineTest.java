package dev.aerun.startline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class StartLineTest {
  @Test
  void format_writesTheLinePeopleAndToolsWaitFor() {
    assertEquals(
        "Serving app.war in HttpConnector mode (EE10) on Jetty 12.1.7 at http://127.0.0.1:8123/"
            + " - started in 812 ms; development: loopback clients trusted",
        StartLine.format(
            "app.war in HttpConnector mode (EE10) on Jetty 12.1.7",
            "127.0.0.1",
            8123,
            812,
            "; development: loopback clients trusted"));
  }

  @Test
  void find_readsBackWhatFormatWrote() {
    String line = StartLine.format("app.war on bare Jetty 12.1.7 (EE10)", "localhost", 80, 5, "");

    assertEquals(Optional.of(new StartLine("localhost", 80, 5)), StartLine.find(line));
  }

  @Test
  void find_takesTheFirstStartLineAmongOthers() {
    String output =
        "INFO some line at http://example.com:1/ elsewhere\n"
            + "Serving a.war in legacy RPC mode (EE8, tcp transport) on Jetty 12.1.7 at"
            + " http://localhost:41234/ - started in 1210 ms\n"
            + "Serving again at http://localhost:2/ - started in 3 ms\n";

    StartLine line = StartLine.find(output).orElseThrow();

    assertEquals(41234, line.port());
    assertEquals("localhost", line.host());
    assertEquals(1210, line.startedMillis());
    assertEquals("http://localhost:41234/", line.url());
  }

  @Test
  void find_readsTheLineInsideAJsonLogEntry() {
    String json =
        "{\"severity\":\"INFO\",\"message\":\"Serving app.war in HttpConnector mode (EE10) on Jetty"
            + " 12.1.7 at http://127.0.0.1:8123/ - started in 812 ms\",\"time\":\"x\"}";

    assertEquals(Optional.of(new StartLine("127.0.0.1", 8123, 812)), StartLine.find(json));
  }

  @Test
  void find_readsTheTcpPortBesideAUnixSocket() {
    assertEquals(
        Optional.of(new StartLine("127.0.0.1", 43351, 26)),
        StartLine.find(
            "Serving a.war in HttpConnector mode (EE10) on Jetty 12.1.7 at http://127.0.0.1:43351/"
                + " and unix:/tmp/x/app.sock - started in 26 ms"));
  }

  @Test
  void find_takesAnIpv6HostAsWritten() {
    assertEquals(
        8080,
        StartLine.find("Serving a at http://::1:8080/ - started in 1 ms").orElseThrow().port());
  }

  @Test
  void find_ignoresLinesThatAreNotTheStartLine() {
    assertTrue(StartLine.find("").isEmpty());
    // The runtime role serves gRPC, not HTTP: no start line.
    assertTrue(
        StartLine.find(
                "Runtime for a.war in legacy RPC mode (EE10) serving gRPC at tcp:127.0.0.1:5 -"
                    + " started in 9 ms")
            .isEmpty());
    // Half a line: the port is not known until the line is whole.
    assertTrue(StartLine.find("Serving a.war at http://127.0.0.1:81").isEmpty());
    assertTrue(StartLine.find("Serving a.war at http://127.0.0.1:8123/ - star").isEmpty());
  }
}
