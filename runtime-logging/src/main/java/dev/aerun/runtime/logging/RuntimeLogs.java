package dev.aerun.runtime.logging;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;

/**
 * Sends the JVM's {@code java.util.logging} output (and so Jetty's and SLF4J's, through {@code
 * slf4j-jdk14}, and the app's) to stdout in the chosen {@link LogFormat}. Called once by the
 * launcher, before anything logs.
 */
public final class RuntimeLogs {
  /** The system property naming the format ({@code json}, {@code text}, {@code auto}). */
  public static final String FORMAT_PROPERTY = "aerun.log.format";

  /** The environment variable naming the format, below the option and the property. */
  public static final String FORMAT_VARIABLE = "AERUN_LOG_FORMAT";

  private RuntimeLogs() {}

  /**
   * Installs the format's handler on the root logger, writing to this process's stdout in UTF-8.
   * {@link LogFormat#AUTO} picks text for a terminal ({@link LogFormat#hasTerminal()}), else JSON.
   *
   * @param format the format asked for
   * @param platform the platform's environment variables, for the trace's project (see {@link
   *     #projectId})
   * @return the installed handler
   */
  public static Handler install(LogFormat format, Map<String, String> platform) {
    PrintStream stdout =
        new PrintStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 14),
            true,
            StandardCharsets.UTF_8);
    return install(
        format.resolve(LogFormat::hasTerminal),
        projectId(platform),
        stdout,
        ZoneId.systemDefault());
  }

  /**
   * Replaces the root logger's {@link ConsoleHandler} (the JDK's default, writing to stderr) and
   * any handler installed here before with a handler of {@code format} writing to {@code out}.
   * Other handlers (a file handler a logging configuration added) stay; loggers keep their levels.
   */
  static Handler install(LogFormat format, String projectId, PrintStream out, ZoneId zone) {
    Handler handler =
        switch (format) {
          case JSON -> new CloudJsonHandler(out, projectId);
          case TEXT -> new TextHandler(out, zone);
          case AUTO -> throw new IllegalArgumentException("resolve AUTO first");
        };
    Logger root = Logger.getLogger("");
    for (Handler old : root.getHandlers()) {
      if (old.getClass() == ConsoleHandler.class
          || old instanceof CloudJsonHandler
          || old instanceof TextHandler) {
        root.removeHandler(old);
        old.close();
      }
    }
    root.addHandler(handler);
    return handler;
  }

  /**
   * The Google Cloud project trace ids belong to: {@code GOOGLE_CLOUD_PROJECT}, else {@code
   * GAE_APPLICATION} without its partition prefix ({@code s~} / {@code e~}); null when neither is
   * set (off the platform).
   */
  public static String projectId(Map<String, String> platform) {
    String project = platform.get("GOOGLE_CLOUD_PROJECT");
    if (project != null && !project.isBlank()) {
      return project.trim();
    }
    String application = platform.get("GAE_APPLICATION");
    if (application == null || application.isBlank()) {
      return null;
    }
    application = application.trim();
    int tilde = application.indexOf('~');
    return tilde >= 0 ? application.substring(tilde + 1) : application;
  }
}
