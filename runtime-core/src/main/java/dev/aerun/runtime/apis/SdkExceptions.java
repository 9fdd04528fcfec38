package dev.aerun.runtime.apis;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

/**
 * The SDK's own {@code ApiProxy} exception types, made in the app's class loader, so that the app's
 * catch blocks (and the SDK's service classes, which turn them into their own exceptions) work as
 * on the platform.
 */
final class SdkExceptions {
  /** {@code MemcacheServiceError.ErrorCode.UNAVAILABLE}: the SDK expects a disabled capability. */
  private static final int MEMCACHE_UNAVAILABLE = 9;

  private final ClassLoader loader;

  SdkExceptions(ClassLoader loader) {
    this.loader = loader;
  }

  /** The service's {@code application_error}. */
  RuntimeException applicationError(String service, String method, int code, String detail) {
    if (code == MEMCACHE_UNAVAILABLE && "memcache".equals(service)) {
      return withMessage("CapabilityDisabledException", detail, service, method);
    }
    return make("ApplicationException", new Class<?>[] {int.class, String.class}, code, detail);
  }

  /** The host's {@code rpc_error} of {@code code}. */
  RuntimeException rpcError(String service, String method, int code, String detail) {
    return switch (code) {
      case RemoteApiEnvelope.CALL_NOT_FOUND -> named("CallNotFoundException", service, method);
      case RemoteApiEnvelope.PARSE_ERROR, RemoteApiEnvelope.BAD_REQUEST ->
          named("ArgumentException", service, method);
      case RemoteApiEnvelope.OVER_QUOTA ->
          withMessage("OverQuotaException", detail, service, method);
      case RemoteApiEnvelope.REQUEST_TOO_LARGE ->
          named("RequestTooLargeException", service, method);
      case RemoteApiEnvelope.RESPONSE_TOO_LARGE ->
          named("ResponseTooLargeException", service, method);
      case RemoteApiEnvelope.CAPABILITY_DISABLED ->
          withMessage("CapabilityDisabledException", detail, service, method);
      case RemoteApiEnvelope.FEATURE_DISABLED ->
          withMessage("FeatureNotEnabledException", detail, service, method);
      case RemoteApiEnvelope.CANCELLED -> named("CancelledException", service, method);
      case RemoteApiEnvelope.DEADLINE_EXCEEDED -> deadlineExceeded(service, method);
      default -> named("UnknownException", service, method);
    };
  }

  RuntimeException deadlineExceeded(String service, String method) {
    return named("ApiDeadlineExceededException", service, method);
  }

  /** The host could not be reached, or answered with something other than an envelope. */
  RuntimeException failed(String service, String method) {
    return named("RPCFailedException", service, method);
  }

  RuntimeException cancelled(String service, String method, String reason) {
    return make(
        "CancelledException",
        new Class<?>[] {String.class, String.class, String.class},
        service,
        method,
        reason);
  }

  RuntimeException featureNotEnabled(String message) {
    return make("FeatureNotEnabledException", new Class<?>[] {String.class}, message);
  }

  RuntimeException callNotFound(String service, String method) {
    return named("CallNotFoundException", service, method);
  }

  private RuntimeException named(String type, String service, String method) {
    return make(type, new Class<?>[] {String.class, String.class}, service, method);
  }

  private RuntimeException withMessage(String type, String message, String service, String method) {
    return make(
        type,
        new Class<?>[] {String.class, String.class, String.class},
        message == null ? "" : message,
        service,
        method);
  }

  private RuntimeException make(String type, Class<?>[] parameters, Object... arguments) {
    try {
      Constructor<?> constructor =
          Class.forName(ApiProxyHandler.API_PROXY + "$" + type, true, loader)
              .getConstructor(parameters);
      return (RuntimeException) constructor.newInstance(arguments);
    } catch (InvocationTargetException e) {
      return e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      // An SDK without this type or constructor: still a clear failure.
      return new IllegalStateException(
          "ApiProxy." + type + ": " + java.util.Arrays.toString(arguments));
    }
  }
}
