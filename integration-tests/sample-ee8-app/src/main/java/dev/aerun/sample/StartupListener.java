package dev.aerun.sample;

import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;
import javax.servlet.annotation.WebListener;

/** Leaves a context attribute, shown by /request-info, to show annotated listeners run. */
@WebListener
public class StartupListener implements ServletContextListener {
  @Override
  public void contextInitialized(ServletContextEvent event) {
    event.getServletContext().setAttribute("sample.listener", "initialized");
  }
}
