package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.webapp.WebappHostContract;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** jakarta.servlet classes the test webapps name in their web.xml. */
public final class Ee10Fixtures {

  /** Fails the app's start. */
  public static final class FailingListener implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
      throw new IllegalStateException("listener failed on purpose");
    }
  }

  /** Throws with a message that must never reach the client. */
  public static final class ThrowingServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) {
      throw new IllegalStateException(WebappHostContract.SECRET);
    }
  }

  private Ee10Fixtures() {}
}
