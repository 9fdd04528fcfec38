package dev.aerun.runtime.logging;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
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
    JASPER_SCHEMAS.setFilter(record -> !isMissingJasperSchema(record));
    return install(
        format.resolve(LogFormat::hasTerminal),
        projectId(platform),
        STDOUT,
        ZoneId.systemDefault());
  }

  /**
   * While on, an exception in a log record is written as one line (its class and message, and its
   * causes'), without stack trace: the launcher turns it on until the app serves, so a start
   * failure ends in one clear error line rather than pages of stack traces.
   */
  public static void briefExceptions(boolean on) {
    Records.briefExceptions = on;
  }

  /**
   * Jasper's descriptor parser, held so that the filter set on it stays: {@code java.util.logging}
   * keeps loggers weakly.
   */
  private static final Logger JASPER_SCHEMAS =
      Logger.getLogger("org.apache.tomcat.util.descriptor.DigesterFactory");

  /** The schemas Tomcat's servlet API jar carries and the standard ones do not. */
  private static final List<String> SCHEMAS_ONLY_TOMCAT_HAS =
      List.of("[XMLSchema.dtd]", "[datatypes.dtd]", "[xml.xsd]");

  /**
   * Whether {@code record} is Jasper's warning, at every start of an app with JSP, that one of
   * {@link #SCHEMAS_ONLY_TOMCAT_HAS} could not be found: it would validate tag library descriptors
   * with them, which it does not (validation is off), and no servlet API jar but Tomcat's has them.
   * The launcher drops these three warnings; anything else Jasper says is kept.
   */
  static boolean isMissingJasperSchema(LogRecord record) {
    String message = record.getMessage();
    return message != null
        && message.startsWith("The XML schema [")
        && SCHEMAS_ONLY_TOMCAT_HAS.stream().anyMatch(message::contains);
  }

  /** How often buffered log lines reach stdout at the latest. */
  static final long FLUSH_INTERVAL_MILLIS = 100;

  /**
   * This process's stdout, in UTF-8, buffered: a line per request must not cost a system call per
   * request. What is written reaches stdout within {@value #FLUSH_INTERVAL_MILLIS} ms (a daemon
   * thread flushes), when 64 KiB are waiting, at once for warnings and errors (see {@link
   * #flushesAtOnce}), and when the JVM exits.
   */
  private static final PrintStream STDOUT = bufferedStdout();

  private static PrintStream bufferedStdout() {
    PrintStream out =
        new PrintStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
            false,
            StandardCharsets.UTF_8);
    Thread flusher =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(FLUSH_INTERVAL_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
                out.flush();
              }
            },
            "aerun-log-flush");
    flusher.setDaemon(true);
    flusher.start();
    Runtime.getRuntime().addShutdownHook(new Thread(out::flush, "aerun-log-flush-on-exit"));
    return out;
  }

  /**
   * Whether a record is written through at once rather than with the next flush: warnings and
   * errors, but not the request log's lines (a 404 is a warning there, and can come by the
   * thousand).
   */
  static boolean flushesAtOnce(LogRecord record) {
    return record instanceof Announcement
        || record.getLevel().intValue() >= Level.WARNING.intValue()
            && !(record instanceof AccessRecord);
  }

  /**
   * Logs {@code line} at INFO on {@code logger} and writes it through to stdout at once, as a
   * warning is: for a line that announces what the process now does (it serves, and where), which
   * people and tools wait for. Other INFO lines reach stdout with the next flush, up to {@value
   * #FLUSH_INTERVAL_MILLIS} ms later. The line's source is the caller.
   */
  public static void announce(Logger logger, String line) {
    Announcement record = new Announcement(line);
    record.setLoggerName(logger.getName());
    StackWalker.getInstance()
        .walk(frames -> frames.skip(1).findFirst())
        .ifPresent(
            caller -> {
              record.setSourceClassName(caller.getClassName());
              record.setSourceMethodName(caller.getMethodName());
            });
    logger.log(record);
  }

  /** An INFO line written through at once ({@link #announce}). */
  static final class Announcement extends LogRecord {
    private static final long serialVersionUID = 1L;

    Announcement(String line) {
      super(Level.INFO, line);
    }
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
