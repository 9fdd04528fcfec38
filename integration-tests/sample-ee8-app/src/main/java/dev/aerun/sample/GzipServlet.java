package dev.aerun.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Answers with a body the app compressed itself ({@code Content-Encoding: gzip}), as apps that
 * serve pre-compressed content do: the runtime must pass it through untouched. {@code ?lines=N}
 * sets the size of the text before compression (default 100).
 */
@WebServlet("/gzip")
public class GzipServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String lines = request.getParameter("lines");
    int count = lines == null ? 100 : Integer.parseInt(lines);
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    // GZIPOutputStream writes a zero modification time, so the bytes are the same every time.
    try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
      for (int i = 0; i < count; i++) {
        gzip.write(("line " + i + " of a gzip-encoded body\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    response.setContentType("text/plain;charset=utf-8");
    response.setHeader("Content-Encoding", "gzip");
    response.setHeader("Vary", "Accept-Encoding");
    response.setContentLength(compressed.size());
    compressed.writeTo(response.getOutputStream());
  }
}
