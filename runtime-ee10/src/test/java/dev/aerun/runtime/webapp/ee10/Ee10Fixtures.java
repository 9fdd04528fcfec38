package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.webapp.WebappHostContract;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.jsp.tagext.BodyTagSupport;
import jakarta.servlet.jsp.tagext.TagLibraryValidator;
import java.io.IOException;
import java.util.Set;

/** jakarta.servlet classes the test webapps name in their web.xml. */
public final class Ee10Fixtures {

  /** Fails the app's start. */
  public static final class FailingListener implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
      throw new IllegalStateException("listener failed on purpose");
    }
  }

  /** Counts its starts in the context attribute {@link #STARTS}. */
  public static final class CountingListener implements ServletContextListener {
    public static final String STARTS = "dev.aerun.test.listenerStarts";

    @Override
    public void contextInitialized(ServletContextEvent event) {
      Object starts = event.getServletContext().getAttribute(STARTS);
      event.getServletContext().setAttribute(STARTS, starts == null ? 1 : (Integer) starts + 1);
    }
  }

  /** Throws with a message that must never reach the client. */
  public static final class ThrowingServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) {
      throw new IllegalStateException(WebappHostContract.SECRET);
    }
  }

  /**
   * Asks for types of the JSP API that only the container's tag-library jar extends here (JSTL's
   * validators and body tags), and serves at {@code /tag-types} how many it was handed.
   */
  @HandlesTypes({TagLibraryValidator.class, BodyTagSupport.class})
  public static final class TagTypesInitializer implements ServletContainerInitializer {
    @Override
    public void onStartup(Set<Class<?>> types, ServletContext context) {
      long count = types == null ? 0 : types.size();
      context
          .addServlet(
              "tag-types",
              new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest request, HttpServletResponse response)
                    throws IOException {
                  response.getWriter().print(count);
                }
              })
          .addMapping("/tag-types");
    }
  }

  private Ee10Fixtures() {}
}
