package dev.aerun.bench.app.ee10;

import dev.aerun.bench.app.ProcessStats;
import dev.aerun.bench.app.Streams;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The benchmark app's servlets (mapped in {@code web.xml}); the EE8 and EE11 apps are generated
 * from this file (see {@code build/source-transform.xml}). Each does only what its scenario needs
 * and allocates nothing per request beyond what the servlet API itself does (see {@link Streams}).
 */
public final class BenchServlets {
  private BenchServlets() {}

  /** {@code POST /echo[?heap]}: the body back, streamed; {@code heap} measures mid-way. */
  public static final class Echo extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      long length = request.getContentLengthLong();
      response.setContentType("application/octet-stream");
      if (length >= 0) {
        response.setContentLengthLong(length);
      }
      Streams.echo(
          request.getInputStream(),
          response.getOutputStream(),
          length,
          Streams.hasFlag(request.getQueryString(), "heap"));
    }
  }

  /** {@code GET|POST /bytes?size=N}: reads and drops any body, answers N bytes. */
  public static final class Bytes extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      Streams.drain(request.getInputStream());
      long size = Streams.longParameter(request.getQueryString(), "size", 0);
      response.setContentType("application/octet-stream");
      response.setContentLengthLong(size);
      Streams.write(response.getOutputStream(), size);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      doGet(request, response);
    }
  }

  /** {@code GET /hello}: the hello-world app of the cold-start and capacity scenarios. */
  public static final class Hello extends HttpServlet {
    private static final byte[] HELLO = "Hello, world\n".getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/plain");
      response.setContentLength(HELLO.length);
      response.getOutputStream().write(HELLO);
    }
  }

  /** {@code GET /stats}: the process's counters ({@link ProcessStats}) as JSON. */
  public static final class Stats extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("application/json");
      response.setHeader("Cache-Control", "no-store");
      response.getOutputStream().write(ProcessStats.json().getBytes(StandardCharsets.US_ASCII));
    }
  }

  /** Follows the collectors while the app runs. */
  public static final class Lifecycle implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
      ProcessStats.start();
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
      ProcessStats.stop();
    }
  }
}
