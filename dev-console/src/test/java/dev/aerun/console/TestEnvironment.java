package dev.aerun.console;

import com.google.apphosting.api.ApiProxy;
import java.util.HashMap;
import java.util.Map;

/** The SDK's environment for the current thread, so that its key and entity classes can be made. */
final class TestEnvironment implements ApiProxy.Environment {
  static final String APP = "console-test";

  private final Map<String, Object> attributes = new HashMap<>();

  static void install() {
    ApiProxy.setEnvironmentForCurrentThread(new TestEnvironment());
  }

  static void remove() {
    ApiProxy.clearEnvironmentForCurrentThread();
  }

  @Override
  public String getAppId() {
    return APP;
  }

  @Override
  public String getModuleId() {
    return "default";
  }

  @Override
  public String getVersionId() {
    return "1";
  }

  @Override
  public String getEmail() {
    return null;
  }

  @Override
  public boolean isLoggedIn() {
    return false;
  }

  @Override
  public boolean isAdmin() {
    return false;
  }

  @Override
  public String getAuthDomain() {
    return "gmail.com";
  }

  @Override
  @Deprecated
  public String getRequestNamespace() {
    return "";
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }

  @Override
  public long getRemainingMillis() {
    return 60_000;
  }
}
