package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the request's parameters as an app does ({@code getParameterMap}: query and form body), and
 * says how many there are and, for the first names, each one's values' count, length and SHA-256.
 */
@WebServlet("/form")
public class FormServlet extends HttpServlet {
  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Map<String, String[]> parameters = new TreeMap<>(request.getParameterMap());
    StringBuilder out = new StringBuilder();
    out.append("parameters=").append(parameters.size()).append('\n');
    parameters.entrySet().stream()
        .limit(5)
        .forEach(
            e -> {
              MessageDigest sha256 = newSha256();
              long length = 0;
              for (String value : e.getValue()) {
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                sha256.update(bytes);
                length += bytes.length;
              }
              out.append(e.getKey())
                  .append('=')
                  .append(e.getValue().length)
                  .append(" value(s), ")
                  .append(length)
                  .append(" bytes, sha256 ")
                  .append(HexFormat.of().formatHex(sha256.digest()))
                  .append('\n');
            });
    response.setContentType("text/plain;charset=utf-8");
    response.getWriter().print(out);
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
