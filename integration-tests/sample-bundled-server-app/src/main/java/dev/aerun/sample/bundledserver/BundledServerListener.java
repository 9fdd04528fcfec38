package dev.aerun.sample.bundledserver;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A listener built on a Jetty class, as code written for an embedded server is: loading it needs
 * Jetty's classes, which a webapp never sees, so the app cannot start.
 */
public class BundledServerListener extends AbstractLifeCycle implements ServletContextListener {
  @Override
  public void contextInitialized(ServletContextEvent event) {
    event.getServletContext().setAttribute("sample.listener", "ran");
  }
}
