package dev.aerun.runtime.apis;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.contract.UserInfo;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.security.AppEngineUsers;
import dev.aerun.runtime.security.LoginUrls;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Gives each request of an app that bundles the App Engine API SDK an {@code ApiProxy.Environment}
 * (the user, the app's ids, the remaining deadline) for the duration of its handling on the request
 * thread, as the platform does, and installs the one {@code ApiProxy.Delegate} of the app: the
 * Users service's login and logout URLs are answered here (from {@link LoginUrls}); every other
 * call fails at once with an {@code ApiProxy.FeatureNotEnabledException} that names the service and
 * what replaces it.
 *
 * <p>Wraps the webapp; finds the SDK in the webapp's class loader once the webapp started. An app
 * without the SDK gets a warning at start and nothing on its request path.
 */
public final class ApiProxyHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(ApiProxyHandler.class.getName());
  static final String API_PROXY = "com.google.apphosting.api.ApiProxy";

  /** The longest a request may run on the platform; a request without a deadline reports it. */
  static final long NO_DEADLINE_REMAINING_MILLIS = 10 * 60 * 1000L;

  private final AppEnvironment environment;
  private final LoginUrls urls;
  private final String appName;
  private volatile Sdk sdk;

  public ApiProxyHandler(
      Handler webapp, AppEnvironment environment, LoginUrls urls, String appName) {
    super(webapp);
    this.environment = environment;
    this.urls = urls;
    this.appName = appName;
  }

  /** Whether the started webapp bundles the SDK (so requests get an environment). */
  public boolean active() {
    return sdk != null;
  }

  @Override
  protected void doStart() throws Exception {
    super.doStart();
    ContextHandler context = getDescendant(ContextHandler.class);
    ClassLoader loader = context == null ? null : context.getClassLoader();
    sdk = loader == null ? null : Sdk.find(loader, urls);
    if (sdk == null) {
      log.warning(
          appName
              + ": <app-engine-apis> is on, but the app does not bundle the App Engine API SDK"
              + " (com.google.appengine:appengine-api-1.0-sdk): ApiProxy is not set up");
    }
  }

  @Override
  protected void doStop() throws Exception {
    sdk = null;
    super.doStop();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Sdk current = sdk;
    if (current == null) {
      return super.handle(request, response, callback);
    }
    current.setEnvironment(new RequestEnvironment(request, environment));
    try {
      return super.handle(request, response, callback);
    } finally {
      current.clearEnvironment();
    }
  }

  /** The SDK's {@code ApiProxy} in the app's class loader, reached by reflection. */
  private static final class Sdk {
    private final ClassLoader loader;
    private final Class<?> environmentType;
    private final Method setEnvironment;
    private final Method clearEnvironment;

    private Sdk(ClassLoader loader, Class<?> apiProxy) throws ReflectiveOperationException {
      this.loader = loader;
      this.environmentType = Class.forName(API_PROXY + "$Environment", false, loader);
      this.setEnvironment = apiProxy.getMethod("setEnvironmentForCurrentThread", environmentType);
      this.clearEnvironment = apiProxy.getMethod("clearEnvironmentForCurrentThread");
    }

    /** The SDK of {@code loader} with this runtime's delegate installed, or null if none. */
    static Sdk find(ClassLoader loader, LoginUrls urls) {
      Class<?> apiProxy;
      try {
        apiProxy = Class.forName(API_PROXY, true, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        return null;
      }
      try {
        Class<?> delegateType = Class.forName(API_PROXY + "$Delegate", false, loader);
        Object delegate =
            Proxy.newProxyInstance(
                loader, new Class<?>[] {delegateType}, new Delegate(loader, urls));
        apiProxy.getMethod("setDelegate", delegateType).invoke(null, delegate);
        return new Sdk(loader, apiProxy);
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.log(Level.WARNING, "The app's App Engine API SDK could not be set up: " + e, e);
        return null;
      }
    }

    void setEnvironment(RequestEnvironment environment) throws ReflectiveOperationException {
      Object proxy = Proxy.newProxyInstance(loader, new Class<?>[] {environmentType}, environment);
      setEnvironment.invoke(null, proxy);
    }

    void clearEnvironment() throws ReflectiveOperationException {
      clearEnvironment.invoke(null);
    }
  }

  /** {@code ApiProxy.Environment} of one request. */
  private static final class RequestEnvironment implements InvocationHandler {
    private final UserInfo user;
    private final AppEnvironment app;
    private final Map<String, Object> attributes = new HashMap<>();
    private final Long deadlineNanos;

    RequestEnvironment(Request request, AppEnvironment app) {
      this.user = AppEngineUsers.user(request);
      this.app = app;
      this.deadlineNanos =
          request.getAttribute(RequestAttributes.DEADLINE_NANOS) instanceof Long nanos
              ? nanos
              : null;
      if (user != null && user.id() != null) {
        attributes.put("com.google.appengine.api.users.UserService.user_id_key", user.id());
      }
      attributes.put("com.google.appengine.api.users.UserService.is_federated_user", false);
      copy(request, RequestAttributes.DEFAULT_VERSION_HOSTNAME, attributes);
      copy(request, RequestAttributes.REQUEST_LOG_ID, attributes);
    }

    private static void copy(Request request, String name, Map<String, Object> into) {
      Object value = request.getAttribute(name);
      if (value != null) {
        into.put(name, value);
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
  }

  /** {@code ApiProxy.Delegate}: login and logout URLs here, every other call fails at once. */
  private static final class Delegate implements InvocationHandler {
    private static final Logger appLog = Logger.getLogger("com.google.apphosting.api.ApiProxy");
    private final ClassLoader loader;
    private final LoginUrls urls;

    Delegate(ClassLoader loader, LoginUrls urls) {
      this.loader = loader;
      this.urls = urls;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      return switch (method.getName()) {
        case "makeSyncCall" -> call((String) args[1], (String) args[2], (byte[]) args[3]);
        case "makeAsyncCall" -> {
          CompletableFuture<byte[]> future = new CompletableFuture<>();
          try {
            future.complete(call((String) args[1], (String) args[2], (byte[]) args[3]));
          } catch (Throwable e) {
            future.completeExceptionally(e);
          }
          yield future;
        }
        case "log" -> {
          Object record = args[1];
          if (record != null) {
            appLog.info(String.valueOf(record.getClass().getMethod("getMessage").invoke(record)));
          }
          yield null;
        }
        case "flushLogs" -> null;
        case "getRequestThreads" -> List.of(Thread.currentThread());
        case "hashCode" -> System.identityHashCode(proxy);
        case "equals" -> proxy == args[0];
        case "toString" -> "aerun ApiProxy delegate";
        default -> throw new UnsupportedOperationException(method.getName());
      };
    }

    private byte[] call(String packageName, String methodName, byte[] request) throws Throwable {
      if ("user".equals(packageName) && "CreateLoginURL".equals(methodName)) {
        return UrlMessages.withUrl(urls.loginUrl(UrlMessages.destination(request)));
      }
      if ("user".equals(packageName) && "CreateLogoutURL".equals(methodName)) {
        return UrlMessages.withUrl(urls.logoutUrl(UrlMessages.destination(request)));
      }
      throw unavailable(packageName, methodName);
    }

    /** The SDK's own exception type, so the app's catch blocks work as on the platform. */
    private Throwable unavailable(String packageName, String methodName) {
      String message = RemoteServices.unavailable(packageName, methodName);
      try {
        return (Throwable)
            Class.forName(API_PROXY + "$FeatureNotEnabledException", true, loader)
                .getConstructor(String.class)
                .newInstance(message);
      } catch (InvocationTargetException e) {
        return e.getCause();
      } catch (ReflectiveOperationException | LinkageError e) {
        return new UnsupportedOperationException(message);
      }
    }
  }
}
