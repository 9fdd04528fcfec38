package dev.aerun.main;

import dev.aerun.appengine.descriptor.EeVersion;
import dev.aerun.runtime.webapp.AppInitializers;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what went wrong while an app was being loaded into one line that says what to do: the class
 * compiled for a newer Java, the servlet API of the other EE, a library that fails to load. The
 * exception itself is for the debug log only.
 */
final class StartFailures {
  /** The JDK's message: {@code a/b/C has been compiled by ... (class file version 69.0), ...}. */
  private static final Pattern CLASS_VERSION =
      Pattern.compile("^(\\S+) has been compiled .*class file version (\\d+)(?:\\.\\d+)?");

  /** The bytecode reader's message when Jetty scans a class for annotations. */
  private static final Pattern SCANNED_VERSION =
      Pattern.compile("Unsupported class file major version (\\d+)");

  /** Class file major version 45 is Java 1.1; from Java 5 on, major = feature + 44. */
  private static final int CLASS_FILE_OFFSET = 44;

  private StartFailures() {}

  /**
   * What the EE choice was based on, for messages: the flag that chose it, or the runtime's
   * default.
   *
   * @param ee the EE chosen
   * @param runtimeId the effective runtime id
   * @param flag the {@code appengine.use.EE*} flag that chose it, if one did
   */
  record EeChoice(EeVersion ee, String runtimeId, Optional<String> flag) {
    String why() {
      return flag.map(f -> f + "=true").orElse("the default of runtime " + runtimeId);
    }
  }

  /** The flag among {@code flags} set to true in {@code properties} (names ignoring case). */
  static Optional<String> trueFlag(Map<String, String> properties, String... flags) {
    for (String flag : flags) {
      for (Map.Entry<String, String> e : properties.entrySet()) {
        if (e.getKey().equalsIgnoreCase(flag) && "true".equalsIgnoreCase(e.getValue().strip())) {
          return Optional.of(flag);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * One line for {@code failure} raised while {@code app} was deployed on {@code choice}, or empty
   * when nothing more specific than its message can be said.
   */
  static Optional<String> explain(Throwable failure, String app, EeChoice choice) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof AppInitializers.LoadFailure) {
        return Optional.of(app + ": " + t.getMessage());
      }
      if (t instanceof UnsupportedClassVersionError) {
        return Optional.of(app + ": " + classVersion(t.getMessage()));
      }
      Matcher scanned = SCANNED_VERSION.matcher(String.valueOf(t.getMessage()));
      if (t instanceof IllegalArgumentException && scanned.find()) {
        int needed = Integer.parseInt(scanned.group(1)) - CLASS_FILE_OFFSET;
        int jvm = Runtime.version().feature();
        return Optional.of(
            String.format(
                Locale.ROOT,
                "%s: a class of the app is compiled for Java %d (class file version %s), which"
                    + " this runtime cannot read on Java %d: run it on a newer Java or compile the"
                    + " app with --release %d",
                app,
                needed,
                scanned.group(1),
                jvm,
                jvm));
      }
    }
    Optional<String> missing = missingClass(failure);
    if (missing.isPresent()) {
      String name = missing.get().replace('/', '.');
      if (name.startsWith("jakarta.servlet.") && choice.ee() == EeVersion.EE8) {
        return Optional.of(
            app
                + ": the app uses jakarta.servlet ("
                + name
                + " is missing), but it runs on EE8 (javax.servlet), chosen by "
                + choice.why()
                + "; set appengine.use.EE10=true (or run it as java21) to serve it on EE10");
      }
      if (name.startsWith("javax.servlet.") && choice.ee() != EeVersion.EE8) {
        return Optional.of(
            app
                + ": the app uses javax.servlet ("
                + name
                + " is missing), but it runs on "
                + choice.ee()
                + " (jakarta.servlet), chosen by "
                + choice.why()
                + "; set appengine.use.EE8=true to serve it on EE8");
      }
      return Optional.of(
          app
              + ": a class of the app or of a library in WEB-INF/lib failed to load: "
              + name
              + " is missing; if a ServletContainerInitializer or a bundled server (e.g. Jetty's"
              + " own jars) needs it, remove that jar from WEB-INF/lib, else add the library that"
              + " has it");
    }
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof LinkageError || t instanceof ServiceConfigurationError) {
        return Optional.of(
            app
                + ": a class of the app or of a library in WEB-INF/lib failed to load ("
                + t.getClass().getSimpleName()
                + (t.getMessage() == null ? "" : ": " + t.getMessage())
                + "); check WEB-INF/lib for a jar that bundles a servlet container or needs a"
                + " missing library");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> missingClass(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if ((t instanceof NoClassDefFoundError || t instanceof ClassNotFoundException)
          && t.getMessage() != null) {
        String m = t.getMessage().strip();
        int space = m.indexOf(' ');
        return Optional.of(space < 0 ? m : m.substring(0, space));
      }
    }
    return Optional.empty();
  }

  private static String classVersion(String message) {
    Matcher m = CLASS_VERSION.matcher(message == null ? "" : message);
    int jvm = Runtime.version().feature();
    if (!m.find()) {
      return "the app has classes compiled for a newer Java than this JVM (Java "
          + jvm
          + "): run the runtime on a newer Java or compile the app with --release "
          + jvm;
    }
    String type = m.group(1).replace('/', '.');
    int major = Integer.parseInt(m.group(2));
    int needed = major - CLASS_FILE_OFFSET;
    return String.format(
        Locale.ROOT,
        "class %s is compiled for Java %d (class file version %d), but this JVM is Java %d: run"
            + " the runtime on Java %d or later, or compile the app with --release %d",
        type,
        needed,
        major,
        jvm,
        needed,
        jvm);
  }
}
