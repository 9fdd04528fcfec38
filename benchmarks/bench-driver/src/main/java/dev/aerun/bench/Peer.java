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

  private static final List<Peer> BUILT_IN = List.of(BARE, HTTP, LEGACY, LEGACY_TCP);
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,31}");
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

  /** The built-in peers, in report order. */
  static List<Peer> values() {
    return BUILT_IN;
  }

  public static Peer byId(String id) {
    for (Peer peer : BUILT_IN) {
      if (peer.id.equals(id)) {
        return peer;
      }
    }
    throw new IllegalArgumentException(
        "unknown peer '" + id + "': expected bare, http, legacy or legacy-tcp");
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
    for (Peer peer : BUILT_IN) {
      if (peer.id.equals(name)) {
        throw new IllegalArgumentException("--peer: '" + name + "' is a built-in peer's name");
      }
    }
    List<String> words = words(spec.substring(eq + 1));
    if (words.isEmpty()) {
      throw new IllegalArgumentException("--peer " + name + ": the command is empty");
    }
    boolean port = false;
    for (String word : words) {
      Matcher m = PLACEHOLDER.matcher(word);
      while (m.find()) {
        if (!PLACEHOLDERS.contains(m.group(1))) {
          throw new IllegalArgumentException(
              "--peer "
                  + name
                  + ": unknown placeholder {"
                  + m.group(1)
                  + "} (expected {java}, {jvm-flags}, {port}, {war})");
        }
        port |= m.group(1).equals("port");
      }
    }
    if (!port) {
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

  /** Splits a command line into words: whitespace separates, quotes group. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("--peer: unclosed quote in '" + line + "'");
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  @Override
  public String toString() {
    return id;
  }
}
