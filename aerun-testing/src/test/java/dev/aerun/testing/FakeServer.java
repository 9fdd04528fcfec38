package dev.aerun.testing;

import dev.aerun.startline.StartLine;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for the runtime, run as a child JVM by {@link RuntimeProcessTest}: {@code serve} logs
 * a line, writes the start line and answers every connection {@code 200} with the environment
 * variable named in its request path; {@code fail} logs and exits 3 before serving.
 */
public final class FakeServer {
  private FakeServer() {}

  public static void main(String[] args) throws IOException {
    System.out.println("a line before the start line");
    if (args[0].equals("fail")) {
      System.out.println("error: cannot start");
      System.exit(3);
    }
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      System.out.println(
          StartLine.format("fake.war on a fake server", "127.0.0.1", server.getLocalPort(), 1, ""));
      System.out.flush();
      while (true) {
        try (Socket socket = server.accept()) {
          byte[] head = new byte[4096];
          int n = socket.getInputStream().read(head);
          String path = new String(head, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1);
          path = path.substring(path.indexOf('/') + 1, path.indexOf(' ', path.indexOf('/')));
          String body = String.valueOf(System.getenv(path));
          OutputStream out = socket.getOutputStream();
          out.write(
              ("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                  .getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
        }
      }
    }
  }
}
