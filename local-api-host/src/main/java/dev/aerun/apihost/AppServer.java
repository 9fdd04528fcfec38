package dev.aerun.apihost;

import com.google.appengine.tools.development.LocalServerEnvironment;
import java.io.File;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The app's server as the local services see it: its directory, and the loopback port its runtime
 * serves on, known only once the runtime started (it binds after the API host is up). Task dispatch
 * waits for that port.
 */
final class AppServer implements LocalServerEnvironment {
  private final File appDir;
  private final CountDownLatch started = new CountDownLatch(1);
  private volatile int port;

  AppServer(File appDir) {
    this.appDir = appDir;
  }

  /** The runtime serves on {@code 127.0.0.1:port} from now on. */
  void served(int newPort) {
    port = newPort;
    started.countDown();
  }

  /** The app's port, or 0 before it serves. */
  @Override
  public int getPort() {
    return port;
  }

  @Override
  public File getAppDir() {
    return appDir;
  }

  @Override
  public String getAddress() {
    return "127.0.0.1";
  }

  @Override
  public String getHostName() {
    return "localhost";
  }

  @Override
  public void waitForServerToStart() throws InterruptedException {
    if (!started.await(10, TimeUnit.MINUTES)) {
      throw new InterruptedException("the app's runtime did not say where it serves");
    }
  }

  @Override
  public boolean enforceApiDeadlines() {
    return true;
  }

  @Override
  public boolean simulateProductionLatencies() {
    return false;
  }
}
