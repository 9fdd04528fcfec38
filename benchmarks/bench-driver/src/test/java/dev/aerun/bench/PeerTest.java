package dev.aerun.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --peer NAME=COMMAND}: the template, its placeholders and its mistakes. */
class PeerTest {
  @Test
  void template_fillsEveryPlaceholder_jvmFlagsAsSeparateWords() {
    Peer peer =
        Peer.custom(
            "tomcat={java} {jvm-flags} -Dport={port} -jar 'my server.jar' --war={war} \"a b\"");

    List<String> command =
        peer.command(
            Path.of("/jdk/bin/java"), List.of("-Xmx1g", "-XX:+UseG1GC"), 8123, Path.of("/w/a.war"));

    assertEquals(
        List.of(
            "/jdk/bin/java",
            "-Xmx1g",
            "-XX:+UseG1GC",
            "-Dport=8123",
            "-jar",
            "my server.jar",
            "--war=/w/a.war",
            "a b"),
        command);
    assertEquals("tomcat", peer.id);
    assertEquals("tomcat", peer.label);
    assertTrue(peer.isCustom());
  }

  @Test
  void mistakes_areNamed() {
    assertMessage("expected NAME=COMMAND", "java -jar x.jar");
    assertMessage("must use {port}", "x={java} -jar x.jar {war}");
    assertMessage("unknown placeholder {host}", "x={java} --host {host} --port {port}");
    assertMessage("built-in peer's name", "bare={java} --port {port}");
    assertMessage("lower-case letters", "My Server={java} --port {port}");
    assertMessage("unclosed quote", "x={java} '--port {port}");
    assertMessage("the command is empty", "x=  ");
  }

  @Test
  void options_addCustomPeersAfterTheBuiltInOnes(@TempDir Path repo) throws Exception {
    BenchOptions options =
        BenchOptions.parse(
            new String[] {"--peers", "bare,http", "--peer", "other={java} --port {port} {war}"},
            repo);
    assertEquals(
        List.of("bare", "http", "other"), options.peers().stream().map(p -> p.id).toList());

    BenchOptions.UsageException twice =
        assertThrows(
            BenchOptions.UsageException.class,
            () ->
                BenchOptions.parse(
                    new String[] {"--peer", "o={java} {port}", "--peer", "o={java} {port}"}, repo));
    assertTrue(twice.getMessage().contains("given twice"), twice.getMessage());
  }

  private static void assertMessage(String expected, String spec) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Peer.custom(spec));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
