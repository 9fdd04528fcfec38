package dev.aerun.runtime.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;

/**
 * A Unix-domain socket the public server listens on, beside its TCP port or instead of it, for a
 * sidecar (a proxy in the same pod or machine). Immutable.
 *
 * <p>The socket file is never world-writable (connecting needs write permission): it is created in
 * a private directory, given its permissions there, and only then moved to {@code path}. A file
 * left at {@code path} by a killed process is replaced only when nothing answers on it; the file is
 * removed when the server stops.
 *
 * @param path the socket file
 * @param groupAccess whether the file's group may connect too ({@code rw-rw----}); otherwise only
 *     its owner ({@code rw-------})
 */
public record UnixSocket(Path path, boolean groupAccess) {
  public UnixSocket {
    Objects.requireNonNull(path, "path");
  }

  /** The permissions the socket file gets. */
  Set<PosixFilePermission> permissions() {
    return PosixFilePermissions.fromString(groupAccess ? "rw-rw----" : "rw-------");
  }

  /** Whether this JVM on this OS has Unix-domain sockets. */
  public static boolean supported() {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * Makes {@code path} free to bind: nothing there, or a socket nothing answers on (left by a
   * killed process), which is deleted.
   *
   * @throws PortUnavailableException when something answers on it, or it is not a socket
   */
  void clearStale() throws PortUnavailableException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)
        || Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
        || Files.isSymbolicLink(path)) {
      throw new PortUnavailableException(this, new IOException("it exists and is not a socket"));
    }
    boolean answered;
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      answered = probe.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException refused) {
      answered = false; // nobody listens: a stale socket
    }
    if (answered) {
      throw new PortUnavailableException(this, new IOException("another process answers on it"));
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new PortUnavailableException(this, e);
    }
  }

  /**
   * Where to bind before the socket is moved to {@link #path()}: in a new directory only this
   * process may enter, beside the final path (a move stays on its file system).
   */
  Path privateBindPath() throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    Path directory =
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
            ? Files.createTempDirectory(
                parent,
                ".aerun-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
            : Files.createTempDirectory(parent, ".aerun-");
    return directory.resolve("s");
  }

  /** Gives the socket bound at {@code bound} its permissions and moves it to {@link #path()}. */
  void publish(Path bound) throws IOException {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(bound, permissions());
    }
    Files.move(bound, path, StandardCopyOption.ATOMIC_MOVE);
    Files.deleteIfExists(bound.getParent());
  }

  /** {@code unix:PATH}. */
  @Override
  public String toString() {
    return "unix:" + path;
  }
}
