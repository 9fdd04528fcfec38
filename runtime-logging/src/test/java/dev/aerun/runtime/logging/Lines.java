package dev.aerun.runtime.logging;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Captures what a handler prints, and a logger that logs only to it. */
final class Lines {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  /** Everything printed, one element per line. */
  List<String> all() {
    String text = bytes.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  /** Every line parsed as a JSON object (fails if one is not). */
  List<JsonObject> json() {
    return all().stream().map(line -> JsonParser.parseString(line).getAsJsonObject()).toList();
  }

  /** A logger of its own name that writes only to {@code handler}. */
  static Logger loggerTo(String name, Handler handler) {
    Logger logger = Logger.getLogger(name);
    logger.setUseParentHandlers(false);
    for (Handler old : logger.getHandlers()) {
      logger.removeHandler(old);
    }
    logger.addHandler(handler);
    logger.setLevel(Level.ALL);
    return logger;
  }
}
