package dev.aerun.runtime.apis;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.TraceContext;
import dev.aerun.runtime.contract.UserInfo;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.security.AppEngineUsers;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Request;

/**
 * {@code ApiProxy.Environment} of one request: the user, the app's ids, the time left, the
 * request's API ticket and trace, and the {@code ThreadManager} factory whose threads carry this
 * environment. Shared by the request's threads, so thread-safe.
 */
final class RequestEnvironment implements InvocationHandler {
  /**
   * How many API calls of one request may be in flight at once (the platform's bound); one more
   * waits for a slot, at most for its own deadline.
   */
  static final int MAX_CALLS_IN_FLIGHT = 100;

  /** The longest a request may run on the platform; a request without a deadline reports it. */
  static final long NO_DEADLINE_REMAINING_MILLIS = 10 * 60 * 1000L;

  static final String REQUEST_THREAD_FACTORY =
      "com.google.appengine.api.ThreadManager.REQUEST_THREAD_FACTORY";

  private final UserInfo user;
  private final AppEnvironment app;
  private final Map<String, Object> attributes = new ConcurrentHashMap<>();
  private final Long deadlineNanos;
  private final String ticket;
  private final TraceContext trace;
  private final Semaphore calls = new Semaphore(MAX_CALLS_IN_FLIGHT);
  private final List<Thread> threads = new ArrayList<>(1);
  private volatile boolean ended;
  private volatile String ownId;
  private volatile Object proxy;

  /**
   * @param ticket the request's API ticket from a trusted front end, or null (an id of the
   *     runtime's own is used then)
   * @param threadEnvironment sets (with the environment) and clears the SDK's environment of a
   *     thread the app makes through {@code ThreadManager}
   */
  RequestEnvironment(
      Request request, AppEnvironment app, String ticket, ThreadEnvironment threadEnvironment) {
    this.user = AppEngineUsers.user(request);
    this.app = app;
    this.ticket = ticket;
    this.deadlineNanos =
        request.getAttribute(RequestAttributes.DEADLINE_NANOS) instanceof Long nanos ? nanos : null;
    this.trace =
        request.getAttribute(RequestAttributes.TRACE_ID) instanceof String traceId
            ? new TraceContext(
                traceId,
                (String) request.getAttribute(RequestAttributes.SPAN_ID),
                Boolean.TRUE.equals(request.getAttribute(RequestAttributes.TRACE_SAMPLED)))
            : null;
    if (user != null && user.id() != null) {
      attributes.put("com.google.appengine.api.users.UserService.user_id_key", user.id());
    }
    attributes.put("com.google.appengine.api.users.UserService.is_federated_user", false);
    copy(request, RequestAttributes.DEFAULT_VERSION_HOSTNAME, attributes);
    copy(request, RequestAttributes.REQUEST_LOG_ID, attributes);
    attributes.put(REQUEST_THREAD_FACTORY, new RequestThreads(threadEnvironment));
    synchronized (threads) {
      threads.add(Thread.currentThread());
    }
  }

  /** Sets and clears the SDK's environment of the current thread. */
  interface ThreadEnvironment {
    void set(RequestEnvironment environment) throws ReflectiveOperationException;

    void clear() throws ReflectiveOperationException;
  }

  private static void copy(Request request, String name, Map<String, Object> into) {
    Object value = request.getAttribute(name);
    if (value != null) {
      into.put(name, value);
    }
  }

  /** The SDK's {@code Environment} of this request (made once, by the SDK's class loader). */
  Object proxy() {
    return proxy;
  }

  void proxy(Object sdkEnvironment) {
    proxy = sdkEnvironment;
  }

  /** The request's ticket, or an id of the runtime's own for a request that came without one. */
  String ticket() {
    if (ticket != null) {
      return ticket;
    }
    String id = ownId;
    if (id == null) {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      id = "aerun-" + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong());
      ownId = id;
    }
    return id;
  }

  /** The request's trace, or null. */
  TraceContext trace() {
    return trace;
  }

  Map<String, Object> attributes() {
    return attributes;
  }

  /** Seconds left before the request's deadline. */
  double secondsLeft() {
    return remainingMillis() / 1000.0;
  }

  /** The response is complete: later calls fail. */
  void end() {
    ended = true;
  }

  boolean ended() {
    return ended;
  }

  /** Takes one of the request's call slots, waiting at most {@code millis}. */
  boolean acquireCallSlot(long millis) {
    try {
      return calls.tryAcquire(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void releaseCallSlot() {
    calls.release();
  }

  /** The request's thread and the live threads it made through {@code ThreadManager}. */
  List<Thread> threads() {
    synchronized (threads) {
      threads.removeIf(t -> !t.isAlive());
      return List.copyOf(threads);
    }
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "getAppId" -> app.applicationId();
      case "getModuleId" -> app.service();
      case "getVersionId" -> app.version();
      case "getEmail" -> user == null ? null : user.email();
      case "isLoggedIn" -> user != null;
      case "isAdmin" -> user != null && user.admin();
      case "getAuthDomain" ->
          user == null ? null : user.authDomain() == null ? "gmail.com" : user.authDomain();
      case "getRequestNamespace" -> "";
      case "getAttributes" -> attributes;
      case "getRemainingMillis" -> remainingMillis();
      case "getTraceId" -> Optional.ofNullable(trace == null ? null : trace.traceId());
      case "getSpanId" -> Optional.ofNullable(trace == null ? null : trace.spanId());
      case "hashCode" -> System.identityHashCode(proxy);
      case "equals" -> proxy == args[0];
      case "toString" -> "aerun ApiProxy environment of " + app.applicationId();
      default -> throw new UnsupportedOperationException(method.getName());
    };
  }

  private long remainingMillis() {
    if (deadlineNanos == null) {
      return NO_DEADLINE_REMAINING_MILLIS;
    }
    return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  /**
   * {@code ThreadManager.currentRequestThreadFactory()}: threads that run with this request's
   * environment (its ticket and deadline), as on the platform.
   */
  private final class RequestThreads implements ThreadFactory {
    private final ThreadEnvironment environment;

    RequestThreads(ThreadEnvironment environment) {
      this.environment = environment;
    }

    @Override
    public Thread newThread(Runnable runnable) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  environment.set(RequestEnvironment.this);
                } catch (ReflectiveOperationException e) {
                  throw new IllegalStateException("cannot give the thread its environment", e);
                }
                try {
                  runnable.run();
                } finally {
                  try {
                    environment.clear();
                  } catch (ReflectiveOperationException e) {
                    // the thread ends anyway
                  }
                }
              });
      thread.setDaemon(true);
      synchronized (threads) {
        threads.add(thread);
      }
      return thread;
    }
  }
}
