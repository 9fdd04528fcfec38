package dev.aerun.runtime.load;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The messages one logger publishes while open. */
final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();

  LogCapture(Class<?> loggingClass) {
    this.logger = Logger.getLogger(loggingClass.getName());
    logger.addHandler(this);
  }

  List<String> messages() {
    return messages;
  }

  String all() {
    return String.join("\n", messages);
  }

  @Override
  public void publish(LogRecord record) {
    messages.add(record.getMessage());
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
