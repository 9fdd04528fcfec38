package dev.aerun.runtime.webapp.ee8;

import dev.aerun.runtime.webapp.WebappHostContract;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** javax.servlet classes the test webapps name in their web.xml. */
public final class Ee8Fixtures {

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

  private Ee8Fixtures() {}
}
