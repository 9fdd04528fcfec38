package dev.aerun.stage;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The main class of the child JVM {@link JspPrecompiler} starts: runs Jasper's {@code JspC} (of the
 * app's EE version, found on the class path, hence reflection) with the arguments given, going on
 * past a JSP that does not compile. Prints one line per such JSP on standard output, {@value
 * #ERROR_PREFIX} and Jasper's message with its line breaks escaped as {@code \n}; Jasper's other
 * log output is dropped.
 */
public final class JspcMain {
  /** What starts the line of a JSP that did not compile. */
  static final String ERROR_PREFIX = "aerun-jspc-error ";

  private JspcMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Logger root = Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new ErrorLines(out));
    Class<?> jspc = Class.forName("org.apache.jasper.JspC");
    Object compiler = jspc.getConstructor().newInstance();
    try {
      jspc.getMethod("setArgs", String[].class).invoke(compiler, (Object) args);
      // Per JSP: one that does not compile is logged and left out of the servlet mappings.
      jspc.getMethod("setFailOnError", boolean.class).invoke(compiler, false);
      jspc.getMethod("execute").invoke(compiler);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** Jasper's compile errors, one line each; everything else it logs is dropped. */
  private static final class ErrorLines extends Handler {
    private final PrintStream out;

    ErrorLines(PrintStream out) {
      this.out = out;
    }

    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() < Level.WARNING.intValue() || record.getThrown() == null) {
        return;
      }
      Throwable t = record.getThrown();
      while (t != null && !t.getClass().getName().equals("org.apache.jasper.JasperException")) {
        t = t.getCause();
      }
      if (t != null && t.getMessage() != null) {
        out.println(ERROR_PREFIX + t.getMessage().strip().replace("\r", "").replace("\n", "\\n"));
      }
    }

    @Override
    public void flush() {
      out.flush();
    }

    @Override
    public void close() {}
  }
}
