package dev.aerun.sample;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads the request body with non-blocking I/O (a {@link ReadListener}) and answers with its length
 * and SHA-256 once all of it has arrived.
 */
@WebServlet(urlPatterns = "/async-io", asyncSupported = true)
public class AsyncIoServlet extends HttpServlet {
  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    AsyncContext async = request.startAsync();
    ServletInputStream in = request.getInputStream();
    MessageDigest sha256 = newSha256();
    in.setReadListener(
        new ReadListener() {
          private final byte[] buffer = new byte[16 * 1024];
          private long length;

          @Override
          public void onDataAvailable() throws IOException {
            while (in.isReady()) {
              int n = in.read(buffer);
              if (n < 0) {
                return;
              }
              sha256.update(buffer, 0, n);
              length += n;
            }
          }

          @Override
          public void onAllDataRead() throws IOException {
            HttpServletResponse asyncResponse = (HttpServletResponse) async.getResponse();
            asyncResponse.setContentType("text/plain;charset=utf-8");
            asyncResponse
                .getWriter()
                .print(
                    "read "
                        + length
                        + " bytes, sha256 "
                        + HexFormat.of().formatHex(sha256.digest()));
            async.complete();
          }

          @Override
          public void onError(Throwable failure) {
            async.complete();
          }
        });
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
