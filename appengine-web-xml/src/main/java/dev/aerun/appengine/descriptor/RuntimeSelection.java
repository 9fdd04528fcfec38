package dev.aerun.appengine.descriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The runtime id, EE version and serving mode an app runs with, and how they are chosen (compatible
 * with the reference runtime; the table is in docs/EE-VERSIONS.md).
 *
 * <p><b>Runtime id:</b> {@code GAE_RUNTIME} if non-blank, else the descriptor's {@code <runtime>};
 * accepted values are {@code java8, java11, java17, java21, java25} (exact, after trimming). When
 * neither is given the JVM decides, with a warning: feature version {@code <=17} → java17, {@code
 * 18..21} → java21, {@code >=22} → java25.
 *
 * <p><b>EE version</b>, as the platform's reader chooses it: the flags {@code appengine.use.EE8},
 * {@code appengine.use.EE10}, {@code appengine.use.EE11} (looked up with {@link
 * #effectiveProperty}; a flag is set when its value is {@code true}, case-insensitive). {@code
 * appengine.use.jetty121=true} (the platform's switch to Jetty 12.1, which this runtime always
 * runs) turns {@code appengine.use.EE10=true} on java17/java21 into EE11, with the platform's
 * warning, since Jetty 12.1 has no EE10 there. Then more than one flag set is an error. A set flag
 * selects that EE; no flag selects the runtime's default: java8/java11 → EE8 (with a warning that
 * these are legacy runtime ids), java17 → EE8, java21 → EE10 (EE11 with {@code jetty121}), java25 →
 * EE11 if supported else EE10. java25 with {@code appengine.use.EE10=true} is an error (the
 * platform refuses it), naming where the flag was set. Choosing an EE the runtime build does not
 * support is an error.
 *
 * <p><b>Mode:</b> the launcher override if given; else {@code appengine.use.HttpConnector=true}
 * selects {@link ServingMode#HTTP_CONNECTOR}; absent or any other value selects {@link
 * ServingMode#LEGACY_RPC} (a value other than true/false adds a warning).
 *
 * @param mode the serving mode
 * @param ee the EE version
 * @param runtimeId the effective runtime id, e.g. {@code java17}
 * @param warnings human-readable warnings for the log, in the order found
 */
public record RuntimeSelection(
    ServingMode mode, EeVersion ee, String runtimeId, List<String> warnings) {

  /** The accepted runtime ids, oldest first. */
  public static final List<String> ACCEPTED_RUNTIMES =
      List.of("java8", "java11", "java17", "java21", "java25");

  /** Flag selecting EE8. */
  public static final String USE_EE8 = "appengine.use.EE8";

  /** Flag selecting EE10. */
  public static final String USE_EE10 = "appengine.use.EE10";

  /** Flag selecting EE11. */
  public static final String USE_EE11 = "appengine.use.EE11";

  /**
   * The platform's flag for Jetty 12.1: EE11 where the runtime's default would be EE10 (java21); an
   * EE flag wins over it.
   */
  public static final String USE_JETTY121 = "appengine.use.jetty121";

  /** Flag selecting HttpConnector mode. */
  public static final String USE_HTTP_CONNECTOR = "appengine.use.HttpConnector";

  /** Copies the warnings into an unmodifiable list. */
  public RuntimeSelection {
    warnings = List.copyOf(warnings);
  }

  /**
   * Chooses runtime id, EE version and mode; pure (reads nothing but {@code in}).
   *
   * @throws SelectionException for an unknown runtime id (naming the accepted values), more than
   *     one EE flag set, or an EE version this runtime build does not support
   */
  public static RuntimeSelection resolve(SelectionInput in) throws SelectionException {
    List<String> warnings = new ArrayList<>();
    String runtime;
    if (in.gaeRuntime().isPresent() && !in.gaeRuntime().get().isBlank()) {
      runtime = in.gaeRuntime().get().strip();
      checkRuntime(runtime, "GAE_RUNTIME");
      in.descriptorRuntime()
          .map(String::strip)
          .filter(d -> !d.isEmpty() && !d.equals(runtime))
          .ifPresent(
              d ->
                  warnings.add(
                      "GAE_RUNTIME="
                          + runtime
                          + " overrides <runtime>"
                          + d
                          + "</runtime> of appengine-web.xml"));
    } else if (in.descriptorRuntime().isPresent() && !in.descriptorRuntime().get().isBlank()) {
      runtime = in.descriptorRuntime().get().strip();
      checkRuntime(runtime, "<runtime> in appengine-web.xml");
    } else {
      int v = in.jvmFeatureVersion();
      runtime = v <= 17 ? "java17" : v <= 21 ? "java21" : "java25";
      warnings.add(
          "no <runtime> in appengine-web.xml and no GAE_RUNTIME; using "
              + runtime
              + " because the JVM is Java "
              + v);
    }

    Map<String, String> props = in.descriptorProperties();
    Map<String, String> over = in.overrides();
    boolean ee8 = isTrue(effectiveProperty(USE_EE8, props, over));
    boolean ee10 = isTrue(effectiveProperty(USE_EE10, props, over));
    boolean ee11 = isTrue(effectiveProperty(USE_EE11, props, over));
    boolean jetty121 = isTrue(effectiveProperty(USE_JETTY121, props, over));
    if (ee10 && jetty121 && (runtime.equals("java17") || runtime.equals("java21"))) {
      // The platform's reader upgrades, with this warning, before it looks for conflicts.
      warnings.add(
          USE_EE10
              + " is not supported with Jetty 12.1 for runtime "
              + runtime
              + ", upgrading to "
              + USE_EE11
              + ".");
      ee10 = false;
      ee11 = true;
    }
    int count = (ee8 ? 1 : 0) + (ee10 ? 1 : 0) + (ee11 ? 1 : 0);
    if (count > 1) {
      List<String> set = new ArrayList<>();
      if (ee8) {
        set.add(USE_EE8);
      }
      if (ee10) {
        set.add(USE_EE10);
      }
      if (ee11) {
        set.add(USE_EE11);
      }
      throw new SelectionException(
          "conflicting EE flags: " + String.join(", ", set) + " are all true; set at most one");
    }

    if (ee10 && runtime.equals("java25")) {
      throw new SelectionException(
          where(USE_EE10, in)
              + USE_EE10
              + "=true is not supported for runtime java25 (Jetty 12.1 has no EE10): use "
              + USE_EE11
              + "=true (the java25 default) or runtime java21");
    }

    EeVersion ee;
    if (ee8) {
      ee = EeVersion.EE8;
    } else if (ee10) {
      ee = EeVersion.EE10;
    } else if (ee11) {
      ee = EeVersion.EE11;
    } else {
      ee =
          switch (runtime) {
            case "java8", "java11" -> EeVersion.EE8;
            case "java17" -> EeVersion.EE8;
            case "java21" -> jetty121 ? EeVersion.EE11 : EeVersion.EE10;
            default -> in.supportedEe().contains(EeVersion.EE11) ? EeVersion.EE11 : EeVersion.EE10;
          };
    }
    if (runtime.equals("java8") || runtime.equals("java11")) {
      warnings.add(
          "runtime "
              + runtime
              + " is a legacy runtime id; the app runs on Java "
              + in.jvmFeatureVersion()
              + " with "
              + ee);
    }
    if (!in.supportedEe().contains(ee)) {
      throw new SelectionException(
          ee
              + " was requested for runtime "
              + runtime
              + " but this runtime supports only "
              + in.supportedEe());
    }
    int needed = runtime.equals("java21") ? 21 : runtime.equals("java25") ? 25 : 0;
    if (in.jvmFeatureVersion() < needed) {
      warnings.add(
          "runtime "
              + runtime
              + " expects Java "
              + needed
              + " but the JVM is Java "
              + in.jvmFeatureVersion());
    }

    ServingMode mode;
    if (in.launcherMode().isPresent()) {
      mode = in.launcherMode().get();
    } else {
      Optional<String> flag = effectiveProperty(USE_HTTP_CONNECTOR, props, over);
      mode = isTrue(flag) ? ServingMode.HTTP_CONNECTOR : ServingMode.LEGACY_RPC;
      flag.map(String::strip)
          .filter(v -> !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false"))
          .ifPresent(
              v ->
                  warnings.add(
                      USE_HTTP_CONNECTOR
                          + "=\""
                          + v
                          + "\" is not true or false; treated as false"));
    }
    return new RuntimeSelection(mode, ee, runtime, warnings);
  }

  /**
   * The effective value of a property: the override's value if {@code overrides} has the name, else
   * the descriptor's. Names are compared case-insensitively (so {@code appengine.use.httpconnector}
   * finds {@code appengine.use.HttpConnector}); when several names differ only in case within one
   * map, the last one in iteration order wins.
   *
   * @param name the property name
   * @param descriptorProperties the descriptor's {@code <system-properties>}
   * @param overrides the {@code -D} overrides
   * @return the value, or empty if neither map has the name
   */
  public static Optional<String> effectiveProperty(
      String name, Map<String, String> descriptorProperties, Map<String, String> overrides) {
    Optional<String> o = lookup(name, overrides);
    return o.isPresent() ? o : lookup(name, descriptorProperties);
  }

  /**
   * Where the effective value of {@code name} was set, as the start of an error message: the
   * descriptor's {@code <file>:<line>:<column>: property: }, or {@code -D<name>: } for an override.
   */
  private static String where(String name, SelectionInput in) {
    if (lookup(name, in.overrides()).isPresent()) {
      return "-D" + name + ": ";
    }
    return lookup(name, in.propertyLocations()).map(at -> at + " ").orElse("");
  }

  private static Optional<String> lookup(String name, Map<String, String> map) {
    String found = null;
    if (map != null && name != null) {
      for (Map.Entry<String, String> e : map.entrySet()) {
        if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && e.getValue() != null) {
          found = e.getValue();
        }
      }
    }
    return Optional.ofNullable(found);
  }

  private static boolean isTrue(Optional<String> v) {
    return v.map(String::strip).map(s -> s.equalsIgnoreCase("true")).orElse(false);
  }

  private static void checkRuntime(String runtime, String source) throws SelectionException {
    if (!ACCEPTED_RUNTIMES.contains(runtime)) {
      throw new SelectionException(
          "unsupported runtime \""
              + runtime
              + "\" from "
              + source
              + "; accepted values: "
              + String.join(", ", ACCEPTED_RUNTIMES));
    }
  }
}
