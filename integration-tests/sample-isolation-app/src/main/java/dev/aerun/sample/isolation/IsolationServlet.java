package dev.aerun.sample.isolation;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /isolation}: one {@code name=value} line per fact about what the app sees: which SLF4J
 * provider it got, which jar each bundled library came from, and whether the runtime's own classes
 * can be loaded at all. {@code ?log=TEXT} logs TEXT through SLF4J first.
 */
@WebServlet("/isolation")
public class IsolationServlet extends HttpServlet {
  private static final Logger LOG = LoggerFactory.getLogger(IsolationServlet.class);

  /** Classes of the runtime's own libraries and of the runtime itself. */
  private static final List<String> RUNTIME_CLASSES =
      List.of(
          "io.grpc.Server",
          "com.google.gson.Gson",
          "org.slf4j.jul.JULServiceProvider",
          "dev.aerun.runtime.logging.RuntimeLogs",
          "dev.aerun.runtime.webapp.WebappHost",
          "com.google.cloud.logging.LogEntry",
          "org.eclipse.jetty.server.Server");

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String log = request.getParameter("log");
    if (log != null) {
      LOG.info(log);
    }
    response.setContentType("text/plain;charset=utf-8");
    PrintWriter out = response.getWriter();
    out.println("slf4j.factory=" + LoggerFactory.getILoggerFactory().getClass().getName());
    out.println("slf4j.api=" + jarOf(LoggerFactory.class));
    out.println("guava=" + jarOf(com.google.common.base.Preconditions.class));
    out.println("protobuf=" + jarOf(com.google.protobuf.Message.class));
    // Objects.toStringHelper is gone from Guava 21 on: only the app's Guava 16 has it.
    out.println(
        "guava.toStringHelper="
            + com.google.common.base.Objects.toStringHelper("x").add("a", 1).toString());
    for (String name : RUNTIME_CLASSES) {
      out.println("visible." + name + "=" + visible(name));
    }
  }

  private static String jarOf(Class<?> type) {
    var source = type.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return "unknown";
    }
    String location = source.getLocation().toString();
    return location.substring(location.lastIndexOf('/', location.length() - 2) + 1);
  }

  private static boolean visible(String name) {
    try {
      Class.forName(name, false, IsolationServlet.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
