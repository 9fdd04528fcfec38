package dev.aerun.e2e.parity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A serving configuration of the runtime, by the name used in {@code -Daerun.parity.modes}. The
 * first mode of the list is the reference; every other one is compared with it.
 *
 * @param name the name in the mode list and in test names
 * @param args the runtime's options for this mode
 * @param streamsResponses true for HttpConnector mode, which streams a response and so can only cut
 *     it short when it overflows after commit; false for legacy mode, which buffers it and can
 *     still answer 500 (the one documented difference, docs/REQUESTS.md)
 * @param h2c true when the cases go over HTTP/2 cleartext ({@link H2cClient}) instead of HTTP/1.1;
 *     such a mode shares the runtime of an HTTP/1.1 mode with the same options, so the two
 *     transports meet the same process
 */
record Mode(String name, List<String> args, boolean streamsResponses, boolean h2c) {
  /** The system property listing the modes to run, comma-separated. */
  static final String MODES_PROPERTY = "aerun.parity.modes";

  /** Replaces a mode's options, e.g. {@code -Daerun.parity.args.legacy-unix="--mode legacy …"}. */
  static final String ARGS_PROPERTY_PREFIX = "aerun.parity.args.";

  /** What runs when the property is not set: the same list as the e2e-tests pom's default. */
  static final String DEFAULT_MODES =
      "http,legacy-inprocess,legacy-tcp,legacy-unix,http-h2c,legacy-h2c";

  private static final Map<String, Mode> KNOWN = known();

  private static Map<String, Mode> known() {
    Map<String, Mode> modes = new LinkedHashMap<>();
    add(modes, "http", true, "--mode", "http");
    // A second HttpConnector runtime: compared with the first, it must show no difference at all,
    // which proves the harness and its normalisations before they judge legacy mode.
    add(modes, "http2", true, "--mode", "http");
    add(modes, "legacy-inprocess", false, "--mode", "legacy", "--rpc-transport", "inprocess");
    add(modes, "legacy-tcp", false, "--mode", "legacy", "--rpc-transport", "tcp");
    add(modes, "legacy-unix", false, "--mode", "legacy", "--rpc-transport", "unix");
    // The same runtimes as http and legacy-inprocess, asked over h2c.
    modes.put("http-h2c", new Mode("http-h2c", List.of("--mode", "http"), true, true));
    modes.put(
        "legacy-h2c",
        new Mode(
            "legacy-h2c",
            List.of("--mode", "legacy", "--rpc-transport", "inprocess"),
            false,
            true));
    return modes;
  }

  private static void add(Map<String, Mode> modes, String name, boolean streams, String... args) {
    modes.put(name, new Mode(name, List.of(args), streams, false));
  }

  /** The modes selected by {@value #MODES_PROPERTY}; the first is the reference. */
  static List<Mode> selected() {
    String list = System.getProperty(MODES_PROPERTY, "").trim();
    if (list.isEmpty()) {
      list = DEFAULT_MODES;
    }
    List<Mode> modes = new ArrayList<>();
    for (String name : list.split(",")) {
      String trimmed = name.trim();
      Mode mode = KNOWN.get(trimmed);
      if (mode == null) {
        throw new IllegalArgumentException(
            MODES_PROPERTY
                + ": unknown mode '"
                + trimmed
                + "', expected some of "
                + KNOWN.keySet());
      }
      String override = System.getProperty(ARGS_PROPERTY_PREFIX + trimmed, "").trim();
      if (!override.isEmpty()) {
        mode =
            new Mode(
                trimmed,
                Arrays.asList(override.split("\\s+")),
                mode.streamsResponses(),
                mode.h2c());
      }
      modes.add(mode);
    }
    if (modes.size() < 2) {
      throw new IllegalArgumentException(
          MODES_PROPERTY
              + " needs a reference and at least one mode to compare with it, got '"
              + list
              + "'");
    }
    return modes;
  }

  @Override
  public String toString() {
    return name;
  }
}
