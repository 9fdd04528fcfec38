package dev.aerun.main;

import dev.aerun.rpc.transport.RpcTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.util.component.LifeCycle;

/** The Unix domain sockets of legacy mode's transports: whether they exist here, and their home. */
final class UnixSockets {
  private UnixSockets() {}

  /** Fails with one line where this OS or JVM has no Unix domain sockets. */
  static void require(String what) throws StartupException {
    if (!RpcTransport.unixSocketsSupported()) {
      throw new StartupException(
          what
              + ": Unix domain sockets are not supported on this OS/JVM ("
              + System.getProperty("os.name")
              + " "
              + System.getProperty("os.arch")
              + "); use tcp instead");
    }
  }

  /** A private directory for the socket: short enough for a socket path, and ours alone. */
  static Path newDirectory(LaunchOptions options) throws StartupException {
    try {
      return options.tempDirectory().isPresent()
          ? Files.createTempDirectory(options.tempDirectory().get(), "aerun-rpc-")
          : Files.createTempDirectory("aerun-rpc-");
    } catch (IOException e) {
      throw new StartupException("cannot create a directory for the RPC socket: " + e, e);
    }
  }

  /** Deletes {@code socketDirectory} once {@code server} stopped, or failed to start. */
  static void deleteWhenStopped(LifeCycle server, Path socketDirectory) {
    server.addEventListener(
        new LifeCycle.Listener() {
          @Override
          public void lifeCycleStopped(LifeCycle event) {
            deleteQuietly(socketDirectory);
          }

          @Override
          public void lifeCycleFailure(LifeCycle event, Throwable cause) {
            deleteQuietly(socketDirectory);
          }
        });
  }

  /** Deletes the directory and its socket, if there is one. */
  static void deleteQuietly(Path socketDirectory) {
    if (socketDirectory == null) {
      return;
    }
    try {
      Files.deleteIfExists(socketDirectory.resolve("runtime.sock"));
      Files.deleteIfExists(socketDirectory);
    } catch (IOException ignored) {
      // A leftover empty directory in the temp dir is harmless.
    }
  }
}
