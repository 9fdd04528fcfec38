package dev.aerun.sample;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;

/**
 * Writes {@code ?bytes=N} bytes of {@code x} in 64 KiB writes; with {@code &flush=true} it commits
 * the response after the first write, so a size-limit breach happens after commit; with {@code
 * &length=true} it declares the length first, so a breach is known before anything is written. Each
 * {@code &vary=V} gives the response a {@code Vary}: the first replaces any there is ({@code
 * setHeader}), the others are added ({@code addHeader}).
 */
@WebServlet("/generate")
public class GenerateServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long remaining = Long.parseLong(request.getParameter("bytes"));
    boolean flush = Boolean.parseBoolean(request.getParameter("flush"));
    response.setContentType("application/octet-stream");
    String[] vary = request.getParameterValues("vary");
    for (int i = 0; vary != null && i < vary.length; i++) {
      if (i == 0) {
        response.setHeader("Vary", vary[i]);
      } else {
        response.addHeader("Vary", vary[i]);
      }
    }
    if (Boolean.parseBoolean(request.getParameter("length"))) {
      response.setContentLengthLong(remaining);
    }
    byte[] chunk = new byte[64 * 1024];
    Arrays.fill(chunk, (byte) 'x');
    ServletOutputStream out = response.getOutputStream();
    while (remaining > 0) {
      int n = (int) Math.min(chunk.length, remaining);
      out.write(chunk, 0, n);
      remaining -= n;
      if (flush) {
        out.flush();
        flush = false;
      }
    }
  }
}
