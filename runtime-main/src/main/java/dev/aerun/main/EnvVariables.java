package dev.aerun.main;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The descriptor's {@code <env-variables>} against the real environment.
 *
 * <p>A JVM cannot change its own environment, and the app reads it with {@code System.getenv()}. On
 * the platform the variables are already in the environment (the platform sets them from the
 * deployed descriptor), and nothing needs doing. Elsewhere the launcher starts the serving JVM
 * again with the missing variables added ({@link Relaunch}); a variable the environment already has
 * with another value keeps the environment's value, as a {@code -D} wins over the descriptor's
 * system properties, and is reported (by name only: values may be secrets).
 */
final class EnvVariables {
  /**
   * Set in the environment of a relaunched JVM, to the epoch millisecond its launcher started: the
   * start line counts from then, and a JVM that has it never relaunches again.
   */
  static final String RELAUNCHED_VARIABLE = "AERUN_RELAUNCHED_AT";

  /**
   * Set in the environment of a relaunched JVM to the comma-separated names of platform variables
   * ({@code PORT}, {@code GAE_*}, {@code GOOGLE_CLOUD_PROJECT}) that came from the descriptor
   * rather than the platform: the app sees them, but the runtime reads none of them, so a
   * descriptor never sets the runtime's port, trust policy or ids.
   */
  static final String FROM_DESCRIPTOR_VARIABLE = "AERUN_FROM_DESCRIPTOR";

  private EnvVariables() {}

  /**
   * What to do about the descriptor's variables.
   *
   * @param missing the variables to add (not in the environment), in the descriptor's order
   * @param overridden the names the environment already sets to another value, which it keeps
   */
  record Plan(Map<String, String> missing, List<String> overridden) {
    Plan {
      missing = Collections.unmodifiableMap(new LinkedHashMap<>(missing));
      overridden = List.copyOf(overridden);
    }

    /** Whether the app's JVM must be started again to see every variable. */
    boolean needsRelaunch() {
      return !missing.isEmpty();
    }

    /** The relaunched JVM's environment: this one, the missing variables, and the marker. */
    Map<String, String> childEnvironment(Map<String, String> environment, long startedAtMillis) {
      Map<String, String> child = new LinkedHashMap<>(environment);
      child.putAll(missing);
      child.put(RELAUNCHED_VARIABLE, Long.toString(startedAtMillis));
      List<String> platform =
          missing.keySet().stream().filter(AppEngineWebXml::isPlatformEnvVariable).toList();
      if (!platform.isEmpty()) {
        child.put(FROM_DESCRIPTOR_VARIABLE, String.join(",", platform));
      }
      return child;
    }
  }

  /** Compares the descriptor's {@code wanted} variables with the real {@code environment}. */
  static Plan plan(Map<String, String> wanted, Map<String, String> environment) {
    Map<String, String> missing = new LinkedHashMap<>();
    List<String> overridden = new ArrayList<>();
    wanted.forEach(
        (name, value) -> {
          String actual = environment.get(name);
          if (actual == null) {
            missing.put(name, value);
          } else if (!actual.equals(value)) {
            overridden.add(name);
          }
        });
    return new Plan(missing, overridden);
  }

  /** The warning for a variable the environment keeps. */
  static String overriddenWarning(String descriptorName, String variable) {
    return descriptorName
        + ": <env-var name=\""
        + variable
        + "\">: the environment already sets "
        + variable
        + " to another value; the app sees the environment's value";
  }
}
