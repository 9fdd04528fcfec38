package dev.aerun.sample.initializer;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import java.util.Set;

/**
 * An initializer that cannot load: its static initializer throws, as one whose configuration or
 * library is missing does. Were it skipped, the app would be served without what it sets up.
 */
public class BrokenInitializer implements ServletContainerInitializer {
  private static final String SETTING = required("sample.initializer.setting");

  private static String required(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException(name + " is not set");
    }
    return value;
  }

  @Override
  public void onStartup(Set<Class<?>> classes, ServletContext context) {
    context.setAttribute("sample.initializer", SETTING);
  }
}
