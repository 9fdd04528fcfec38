package dev.aerun.runtime.server;

import java.io.IOException;
import java.net.BindException;

/**
 * The public port could not be bound: its message is one line for the user naming the address and
 * port and what to do.
 */
public final class PortUnavailableException extends IOException {
  private static final long serialVersionUID = 1L;

  PortUnavailableException(String host, int port, IOException cause) {
    super(message(host, port, cause), cause);
  }

  PortUnavailableException(UnixSocket socket, IOException cause) {
    super(
        "cannot listen on "
            + socket
            + ": "
            + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage())
            + "; stop what listens there or choose another path with --unix-socket",
        cause);
  }

  private static String message(String host, int port, IOException cause) {
    String address = (host == null ? "0.0.0.0" : host) + ":" + port;
    String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    if (cause instanceof BindException
        && why.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
      return "cannot listen on "
          + address
          + ": the port is already in use; stop what listens there or choose another port"
          + " with --port (or $PORT)";
    }
    return "cannot listen on " + address + ": " + why + "; choose another address or port";
  }
}
