package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Describes the request as the app sees it, as JSON in a text/plain response, including the length
 * and SHA-256 of the body it read and the trailer fields after it: the end-to-end tests compare it
 * between serving modes.
 */
@WebServlet("/request-info")
public class RequestInfoServlet extends HttpServlet {

  /** The env-variables entry of WEB-INF/appengine-web.xml. */
  static final String ENV_NAME = "SAMPLE_ENV";

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Map<String, Object> info = new TreeMap<>();
    info.put("method", request.getMethod());
    info.put("protocol", request.getProtocol());
    info.put("uri", request.getRequestURI());
    info.put("query", request.getQueryString());
    Map<String, Object> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String name : Collections.list(request.getHeaderNames())) {
      headers.put(name, Collections.list(request.getHeaders(name)));
    }
    info.put("headers", headers);
    info.put("remoteAddr", request.getRemoteAddr());
    info.put("remotePort", request.getRemotePort());
    info.put("scheme", request.getScheme());
    info.put("secure", request.isSecure());
    info.put("serverName", request.getServerName());
    info.put("serverPort", request.getServerPort());
    info.put("remoteUser", request.getRemoteUser());
    info.put(
        "userPrincipal",
        request.getUserPrincipal() == null ? null : request.getUserPrincipal().getName());
    info.put("authType", request.getAuthType());
    info.put("userInRoleAdmin", request.isUserInRole("admin"));
    info.put("servletPath", request.getServletPath());
    info.put("pathInfo", request.getPathInfo());
    Map<String, Object> attributes = new TreeMap<>();
    for (String name : Collections.list(request.getAttributeNames())) {
      attributes.put(name, String.valueOf(request.getAttribute(name)));
    }
    info.put("attributes", attributes);
    Map<String, Object> properties = new TreeMap<>();
    System.getProperties()
        .forEach(
            (key, value) -> {
              String name = key.toString();
              if (name.startsWith("com.google.appengine.") || name.equals("sample.greeting")) {
                properties.put(name, value.toString());
              }
            });
    info.put("systemProperties", properties);
    info.put("env", Collections.singletonMap(ENV_NAME, System.getenv(ENV_NAME)));
    info.put("listener", getServletContext().getAttribute("sample.listener"));
    // The body is read here, after everything above, so parameters are not parsed from it.
    MessageDigest sha256 = newSha256();
    long bodyLength = 0;
    byte[] buffer = new byte[64 * 1024];
    InputStream in = request.getInputStream();
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      sha256.update(buffer, 0, n);
      bodyLength += n;
    }
    info.put("bodyLength", bodyLength);
    info.put("bodySha256", HexFormat.of().formatHex(sha256.digest()));
    // Readable once the body was read whole: the fields after a chunked body, names lower case.
    info.put("trailers", new TreeMap<>(request.getTrailerFields()));

    response.setContentType("text/plain;charset=utf-8");
    StringBuilder out = new StringBuilder();
    writeJson(out, info);
    response.getWriter().print(out.append('\n'));
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static void writeJson(StringBuilder out, Object value) {
    if (value == null || value instanceof Boolean || value instanceof Number) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      List<String> members = new ArrayList<>();
      map.forEach(
          (key, member) -> {
            StringBuilder entry = new StringBuilder();
            writeJson(entry, key.toString());
            writeJson(entry.append(": "), member);
            members.add(entry.toString());
          });
      out.append('{').append(String.join(", ", members)).append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        writeJson(out.append(i == 0 ? "" : ", "), list.get(i));
      }
      out.append(']');
    } else {
      out.append('"');
      for (char c : value.toString().toCharArray()) {
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          default -> {
            if (c < 0x20) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      out.append('"');
    }
  }
}
