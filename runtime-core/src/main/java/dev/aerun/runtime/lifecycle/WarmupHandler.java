package dev.aerun.runtime.lifecycle;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The platform's warm-up ({@value #WARMUP_PATH}) and start ({@value #START_PATH}) requests, in
 * front of the app in both modes.
 *
 * <p>The app is deployed eagerly, so its {@code load-on-startup} servlets and listeners already ran
 * when the port opened. If the app maps one of these paths to a servlet of its own (an exact or
 * prefix mapping, not its default servlet), that servlet is its warm-up logic and answers.
 * Otherwise the runtime answers {@code 200} itself. With warm-up requests disabled in {@code
 * appengine-web.xml}, {@value #WARMUP_PATH} is an ordinary path of the app.
 */
public final class WarmupHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(WarmupHandler.class.getName());

  public static final String WARMUP_PATH = "/_ah/warmup";
  public static final String START_PATH = "/_ah/start";

  private static final byte[] READY = "ready\n".getBytes(StandardCharsets.US_ASCII);

  private final boolean warmupEnabled;
  private final Predicate<String> appMaps;
  private volatile boolean answerWarmup;
  private volatile boolean answerStart;

  /**
   * @param warmupEnabled whether warm-up requests are on ({@code <warmup-requests-enabled>} and the
   *     {@code warmup} inbound service)
   * @param appMaps whether the started app maps a path to a servlet of its own
   */
  public WarmupHandler(boolean warmupEnabled, Predicate<String> appMaps) {
    this.warmupEnabled = warmupEnabled;
    this.appMaps = appMaps;
  }

  public WarmupHandler(Handler app, boolean warmupEnabled, Predicate<String> appMaps) {
    this(warmupEnabled, appMaps);
    setHandler(app);
  }

  @Override
  protected void doStart() throws Exception {
    super.doStart(); // the app is deployed: its mappings are known
    answerWarmup = warmupEnabled && !appMaps.test(WARMUP_PATH);
    answerStart = !appMaps.test(START_PATH);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    if (path != null && path.startsWith("/_ah/")) {
      boolean warmup = answerWarmup && WARMUP_PATH.equals(path);
      if (warmup || answerStart && START_PATH.equals(path)) {
        log.fine(() -> path + ": the app is deployed and started");
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=us-ascii");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, ByteBuffer.wrap(READY), callback);
        return true;
      }
    }
    return super.handle(request, response, callback);
  }

  /** Whether the runtime answers {@value #WARMUP_PATH} itself (known once started). */
  public boolean answersWarmup() {
    return answerWarmup;
  }

  /** Whether the runtime answers {@value #START_PATH} itself (known once started). */
  public boolean answersStart() {
    return answerStart;
  }
}
