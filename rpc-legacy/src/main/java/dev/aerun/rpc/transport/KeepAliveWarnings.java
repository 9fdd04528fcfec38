package dev.aerun.rpc.transport;

import java.util.List;
import java.util.logging.Logger;

/**
 * Silences one false alarm. gRPC's Netty transport sets {@code SO_KEEPALIVE} on every connection,
 * and Netty warns that a Unix domain socket has no such option, once per connection and side. The
 * warning says nothing wrong; only that record is dropped, every other one still goes through.
 */
final class KeepAliveWarnings {
  private static final String SHADED_BOOTSTRAP = "io.grpc.netty.shaded.io.netty.bootstrap.";

  /** Held so the loggers, and the filter set on them, are not garbage-collected. */
  private static final List<Logger> LOGGERS =
      List.of(
          Logger.getLogger(SHADED_BOOTSTRAP + "Bootstrap"),
          Logger.getLogger(SHADED_BOOTSTRAP + "ServerBootstrap"),
          Logger.getLogger(SHADED_BOOTSTRAP + "AbstractBootstrap"));

  private KeepAliveWarnings() {}

  /** Installs the filter, once; loggers that already have a filter are left alone. */
  static synchronized void silence() {
    for (Logger logger : LOGGERS) {
      if (logger.getFilter() == null) {
        logger.setFilter(
            record ->
                record.getMessage() == null
                    || !record.getMessage().startsWith("Unknown channel option 'SO_KEEPALIVE'"));
      }
    }
  }
}
