package dev.aerun.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server measured by the benchmarks: one of the built-in peers (bare Jetty and the runtime's
 * modes), or any other server given on the command line as {@code --peer NAME=COMMAND}, a command
 * template run on the same WAR with the same JVM and flags.
 */
public final class Peer {
  /** Jetty serving the WAR in a plain WebAppContext: the yardstick. */
  public static final Peer BARE = new Peer("bare", "bare Jetty", List.of(), null);

  /** The runtime in HttpConnector mode. */
  public static final Peer HTTP =
      new Peer("http", "HttpConnector", List.of("--mode", "http"), null);

  /** The runtime in legacy RPC mode, in-process gRPC transport (the launcher's default). */
  public static final Peer LEGACY = new Peer("legacy", "legacy", List.of("--mode", "legacy"), null);

  /** Legacy RPC mode with gRPC over a loopback TCP socket. */
  public static final Peer LEGACY_TCP =
      new Peer(
          "legacy-tcp",
          "legacy (tcp)",
          List.of("--mode", "legacy", "--rpc-transport", "tcp"),
          null);

  /** The built-in peers, in report order. */
  static final List<Peer> BUILT_IN = List.of(BARE, HTTP, LEGACY, LEGACY_TCP);

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,31}");
  private static final Pattern WORD = Pattern.compile("(?:[^\\s'\"]+|'[^']*'|\"[^\"]*\")+");
  private static final Pattern QUOTED = Pattern.compile("'([^']*)'|\"([^\"]*)\"");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z-]+)}");
  private static final List<String> PLACEHOLDERS = List.of("java", "jvm-flags", "port", "war");

  public final String id;
  public final String label;
  final List<String> runtimeOptions;

  /** The command template of a peer from the command line; {@code null} for a built-in one. */
  final List<String> template;

  private Peer(String id, String label, List<String> runtimeOptions, List<String> template) {
    this.id = id;
    this.label = label;
    this.runtimeOptions = runtimeOptions;
    this.template = template;
  }

  public static Peer byId(String id) {
    return BUILT_IN.stream()
        .filter(p -> p.id.equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown peer '" + id + "': expected bare, http, legacy or legacy-tcp"));
  }

  /** Whether this is the runtime in legacy RPC mode. */
  boolean isLegacy() {
    return this == LEGACY || this == LEGACY_TCP;
  }

  boolean isCustom() {
    return template != null;
  }

  /**
   * A peer from {@code NAME=COMMAND}. The command is split into words at whitespace (single or
   * double quotes keep a word together) and may use {@code {java}}, {@code {jvm-flags}} (a word of
   * its own: the flags as separate words), {@code {port}} (required: the server must listen on
   * 127.0.0.1 at that port) and {@code {war}}.
   */
  static Peer custom(String spec) {
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("--peer: expected NAME=COMMAND, got '" + spec + "'");
    }
    String name = spec.substring(0, eq).trim();
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "--peer: the name '" + name + "' must be lower-case letters, digits, '.', '_' or '-'");
    }
    if (BUILT_IN.stream().anyMatch(p -> p.id.equals(name))) {
      throw new IllegalArgumentException("--peer: '" + name + "' is a built-in peer's name");
    }
    List<String> words = words(spec.substring(eq + 1));
    if (words.isEmpty()) {
      throw new IllegalArgumentException("--peer " + name + ": the command is empty");
    }
    List<String> used =
        words.stream().flatMap(w -> PLACEHOLDER.matcher(w).results()).map(m -> m.group(1)).toList();
    for (String placeholder : used) {
      if (!PLACEHOLDERS.contains(placeholder)) {
        String expected = "(expected {java}, {jvm-flags}, {port}, {war})";
        throw new IllegalArgumentException(
            "--peer " + name + ": unknown placeholder {" + placeholder + "} " + expected);
      }
    }
    if (!used.contains("port")) {
      throw new IllegalArgumentException(
          "--peer " + name + ": the command must use {port}, where the server is to listen");
    }
    return new Peer(name, name, List.of(), List.copyOf(words));
  }

  /** This custom peer's command with the placeholders filled in. */
  List<String> command(Path java, List<String> jvmFlags, int port, Path war) {
    List<String> command = new ArrayList<>();
    for (String word : template) {
      if (word.equals("{jvm-flags}")) {
        command.addAll(jvmFlags);
        continue;
      }
      command.add(
          word.replace("{java}", java.toString())
              .replace("{jvm-flags}", String.join(" ", jvmFlags))
              .replace("{port}", Integer.toString(port))
              .replace("{war}", war.toString()));
    }
    return command;
  }

  /** Splits a command line into words: whitespace separates, quotes group (and are dropped). */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    Matcher word = WORD.matcher(line);
    int end = 0;
    for (; word.find(); end = word.end()) {
      if (!line.substring(end, word.start()).isBlank()) {
        break; // a quote that no word took: unclosed
      }
      words.add(QUOTED.matcher(word.group()).replaceAll("$1$2"));
    }
    if (!line.substring(end).isBlank()) {
      throw new IllegalArgumentException("--peer: unclosed quote in '" + line + "'");
    }
    return words;
  }

  @Override
  public String toString() {
    return id;
  }
}
