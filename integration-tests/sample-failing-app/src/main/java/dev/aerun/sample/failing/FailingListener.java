package dev.aerun.sample.failing;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/** Throws at start-up when {@code -Dsample.fail.at=listener}. */
@WebListener
public class FailingListener implements ServletContextListener {
  @Override
  public void contextInitialized(ServletContextEvent event) {
    if ("listener".equals(System.getProperty("sample.fail.at"))) {
      throw new IllegalStateException("the sample listener cannot reach its database");
    }
  }
}
