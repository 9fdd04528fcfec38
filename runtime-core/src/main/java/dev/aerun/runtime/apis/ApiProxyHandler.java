package dev.aerun.runtime.apis;

import dev.aerun.runtime.contract.RequestAttributes;
import dev.aerun.runtime.env.AppEnvironment;
import dev.aerun.runtime.security.LoginUrls;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
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
 * (the user, the app's ids, the remaining deadline, the request's API ticket) for the duration of
 * its handling on the request thread and the threads it makes through {@code ThreadManager}, as the
 * platform does, and installs the one {@code ApiProxy.Delegate} of the app: the Users service's
 * login and logout URLs are answered here (from {@link LoginUrls}); every other call goes to the
 * {@link ApiHost} (see {@link RemoteCalls}), or fails at once with an {@code
 * ApiProxy.FeatureNotEnabledException} that names the service and what replaces it when there is
 * none.
 *
 * <p>Wraps the webapp; finds the SDK in the webapp's class loader once the webapp started. An app
 * without the SDK gets a warning at start and nothing on its request path. The request's ticket
 * ({@link RequestAttributes#API_TICKET}) is taken off the request here, before the app sees it.
 */
public final class ApiProxyHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(ApiProxyHandler.class.getName());
  static final String API_PROXY = "com.google.apphosting.api.ApiProxy";

  private final AppEnvironment environment;
  private final LoginUrls urls;
  private final String appName;
  private final ApiHostClient client;
  private volatile Sdk sdk;

  public ApiProxyHandler(AppEngineApis apis) {
    this.environment = apis.environment();
    this.urls = apis.loginUrls();
    this.appName = apis.appName();
    this.client = apis.client();
  }

  public ApiProxyHandler(AppEngineApis apis, Handler webapp) {
    this(apis);
    setHandler(webapp);
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
    sdk = loader == null ? null : Sdk.find(loader, urls, client);
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
    Object ticket = request.removeAttribute(RequestAttributes.API_TICKET);
    Sdk current = sdk;
    if (current == null) {
      return super.handle(request, response, callback);
    }
    RequestEnvironment requestEnvironment =
        new RequestEnvironment(
            request, environment, ticket instanceof String s ? s : null, current.threads);
    current.threads.set(requestEnvironment);
    try {
      return super.handle(request, response, Callback.from(requestEnvironment::end, callback));
    } finally {
      current.threads.clear();
    }
  }

  /** The SDK's {@code ApiProxy} in the app's class loader, reached by reflection. */
  private static final class Sdk {
    private final RequestEnvironment.ThreadEnvironment threads;

    private Sdk(ClassLoader loader, Class<?> apiProxy) throws ReflectiveOperationException {
      Class<?> environmentType = Class.forName(API_PROXY + "$Environment", false, loader);
      Class<?>[] interfaces = environmentInterfaces(loader, environmentType);
      Method setEnvironment = apiProxy.getMethod("setEnvironmentForCurrentThread", environmentType);
      Method clearEnvironment = apiProxy.getMethod("clearEnvironmentForCurrentThread");
      this.threads =
          new RequestEnvironment.ThreadEnvironment() {
            @Override
            public void set(RequestEnvironment environment) throws ReflectiveOperationException {
              Object proxy = environment.proxy();
              if (proxy == null) {
                proxy = Proxy.newProxyInstance(loader, interfaces, environment);
                environment.proxy(proxy);
              }
              setEnvironment.invoke(null, proxy);
            }

            @Override
            public void clear() throws ReflectiveOperationException {
              clearEnvironment.invoke(null);
            }
          };
    }

    /** {@code Environment}, and {@code EnvironmentWithTrace} where the SDK has it. */
    private static Class<?>[] environmentInterfaces(ClassLoader loader, Class<?> environment) {
      try {
        return new Class<?>[] {Class.forName(API_PROXY + "$EnvironmentWithTrace", false, loader)};
      } catch (ClassNotFoundException | LinkageError e) {
        return new Class<?>[] {environment};
      }
    }

    /** The SDK of {@code loader} with this runtime's delegate installed, or null if none. */
    static Sdk find(ClassLoader loader, LoginUrls urls, ApiHostClient client) {
      Class<?> apiProxy;
      try {
        apiProxy = Class.forName(API_PROXY, true, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        return null;
      }
      try {
        Class<?> delegateType = Class.forName(API_PROXY + "$Delegate", false, loader);
        RemoteCalls calls = new RemoteCalls(client, new SdkExceptions(loader));
        Object delegate =
            Proxy.newProxyInstance(
                loader, new Class<?>[] {delegateType}, new Delegate(urls, calls));
        apiProxy.getMethod("setDelegate", delegateType).invoke(null, delegate);
        return new Sdk(loader, apiProxy);
      } catch (ReflectiveOperationException | RuntimeException e) {
        log.log(Level.WARNING, "The app's App Engine API SDK could not be set up: " + e, e);
        return null;
      }
    }
  }

  /** {@code ApiProxy.Delegate}: login and logout URLs here, every other call to the API host. */
  private static final class Delegate implements InvocationHandler {
    private static final Logger appLog = Logger.getLogger("com.google.apphosting.api.ApiProxy");
    private static final String API_DEADLINE_KEY =
        "com.google.apphosting.api.ApiProxy.api_deadline_key";
    private final LoginUrls urls;
    private final RemoteCalls calls;

    Delegate(LoginUrls urls, RemoteCalls calls) {
      this.urls = urls;
      this.calls = calls;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      return switch (method.getName()) {
        case "makeSyncCall" -> {
          byte[] local = local((String) args[1], (String) args[2], (byte[]) args[3]);
          if (local != null) {
            yield local;
          }
          RequestEnvironment request = request(args[0]);
          Object deadline = attributes(args[0], request).get(API_DEADLINE_KEY);
          yield calls.callBlocking(
              request,
              (String) args[1],
              (String) args[2],
              (byte[]) args[3],
              deadline instanceof Number n ? n : null);
        }
        case "makeAsyncCall" -> {
          byte[] local = local((String) args[1], (String) args[2], (byte[]) args[3]);
          if (local != null) {
            yield CompletableFuture.completedFuture(local);
          }
          yield calls.call(
              request(args[0]),
              (String) args[1],
              (String) args[2],
              (byte[]) args[3],
              deadline(args[4]));
        }
        case "log" -> {
          Object record = args[1];
          if (record != null) {
            appLog.info(String.valueOf(record.getClass().getMethod("getMessage").invoke(record)));
          }
          yield null;
        }
        case "flushLogs" -> null;
        case "getRequestThreads" -> {
          RequestEnvironment request = request(args[0]);
          yield request == null ? List.of(Thread.currentThread()) : request.threads();
        }
        case "hashCode" -> System.identityHashCode(proxy);
        case "equals" -> proxy == args[0];
        case "toString" -> "aerun ApiProxy delegate";
        default -> throw new UnsupportedOperationException(method.getName());
      };
    }

    /** The Users service's URLs, answered here; null for every other call. */
    private byte[] local(String packageName, String methodName, byte[] request) {
      if ("user".equals(packageName) && "CreateLoginURL".equals(methodName)) {
        return UrlMessages.withUrl(urls.loginUrl(UrlMessages.destination(request)));
      }
      if ("user".equals(packageName) && "CreateLogoutURL".equals(methodName)) {
        return UrlMessages.withUrl(urls.logoutUrl(UrlMessages.destination(request)));
      }
      return null;
    }

    /** This runtime's environment behind the SDK's, or null for one the app made itself. */
    private static RequestEnvironment request(Object environment) {
      if (environment != null && Proxy.isProxyClass(environment.getClass())) {
        InvocationHandler handler = Proxy.getInvocationHandler(environment);
        if (handler instanceof RequestEnvironment request) {
          return request;
        }
      }
      return null;
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> attributes(
        Object environment, RequestEnvironment request) throws ReflectiveOperationException {
      if (request != null) {
        return request.attributes();
      }
      return (java.util.Map<String, Object>)
          environment.getClass().getMethod("getAttributes").invoke(environment);
    }

    /** {@code ApiConfig.getDeadlineInSeconds()}, or null. */
    private static Number deadline(Object apiConfig) throws ReflectiveOperationException {
      if (apiConfig == null) {
        return null;
      }
      Object seconds = apiConfig.getClass().getMethod("getDeadlineInSeconds").invoke(apiConfig);
      return seconds instanceof Number n ? n : null;
    }
  }
}
