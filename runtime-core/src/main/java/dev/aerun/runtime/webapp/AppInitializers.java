package dev.aerun.runtime.webapp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The app's own {@code ServletContainerInitializer}s (those its {@code WEB-INF/classes} and {@code
 * WEB-INF/lib} declare) must load before the app starts. Jetty skips an initializer that fails to
 * load with a log line and serves the app without it, half set up; the runtime makes that a start
 * failure instead, naming the initializer and the WAR entry that declares it.
 */
public final class AppInitializers {
  private AppInitializers() {}

  /**
   * Loads and initialises every initializer of {@code service} (the servlet API's {@code
   * ServletContainerInitializer} class name) the app declares, through {@code appLoader} (the
   * webapp's class loader, its class path complete).
   *
   * @throws LoadFailure if one fails to load: its message names it and its WAR entry and says what
   *     to do, its cause is what the class loader threw
   */
  public static void check(ClassLoader appLoader, String service) {
    String file = "META-INF/services/" + service;
    try {
      for (URL url : Collections.list(appLoader.getResources(file))) {
        String entry = warEntry(url.toString(), file);
        if (entry != null) {
          for (String name : providers(url)) {
            load(appLoader, name, entry);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the app's " + file, e);
    }
  }

  private static void load(ClassLoader appLoader, String name, String entry) {
    try {
      Class.forName(name, true, appLoader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new LoadFailure(
          "the ServletContainerInitializer "
              + name
              + " declared in "
              + entry
              + " failed to load ("
              + e
              + "): fix it or remove it from the app",
          e);
    }
  }

  /** An app's initializer that failed to load; the message is the whole explanation. */
  public static final class LoadFailure extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    LoadFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The WAR entry ({@code WEB-INF/lib/x.jar} or {@code WEB-INF/classes}) a service file at {@code
   * url} comes from, or null if it is not the app's own (the container's, seen through the parent).
   */
  static String warEntry(String url, String file) {
    int webInf = url.lastIndexOf("/WEB-INF/");
    if (webInf < 0) {
      return null;
    }
    String entry = url.substring(webInf + 1);
    int inJar = entry.indexOf("!/");
    if (inJar >= 0) {
      return entry.substring(0, inJar);
    }
    return entry.endsWith("/" + file)
        ? entry.substring(0, entry.length() - file.length() - 1)
        : entry;
  }

  /** The class names a service file lists: one a line, {@code #} starts a comment. */
  private static List<String> providers(URL url) throws IOException {
    List<String> names = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        int hash = line.indexOf('#');
        String name = (hash < 0 ? line : line.substring(0, hash)).strip();
        if (!name.isEmpty()) {
          names.add(name);
        }
      }
    }
    return names;
  }
}
