package dev.aerun.apihost;

import com.google.appengine.repackaged.com.google.protobuf.ByteString;
import com.google.appengine.tools.development.ApiProxyLocal;
import com.google.appengine.tools.development.ApiProxyLocalFactory;
import com.google.apphosting.api.ApiProxy;
import com.google.apphosting.base.protos.api_bytes.RemoteApiPb;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Google's local service implementations ({@code ApiProxyLocal} of appengine-api-stubs), set up as
 * the dev server needs them: the Datastore and Blobstore on disk under the storage folder, push
 * tasks dispatched to the app ({@link TaskDispatch}), mail logged with its body, deadlines
 * enforced. {@link #call} runs one call and answers with a remote-API {@code Response}: the
 * service's response, its {@code application_error}, or an {@code rpc_error} whose detail names no
 * internals of this process.
 */
final class LocalServices {
  private static final Logger log = Logger.getLogger(LocalServices.class.getName());
  static final String API_DEADLINE_KEY = "com.google.apphosting.api.ApiProxy.api_deadline_key";

  private final ApiProxyLocal proxy;
  private final AdminCalls admin;
  private final String appId;
  private final boolean logCalls;
  private final AtomicLong calls = new AtomicLong();
  private volatile String lastRequestId = "";

  LocalServices(HostOptions options, AppServer app) throws IOException {
    this.appId = options.appId();
    this.logCalls = options.logCalls();
    Files.createDirectories(options.storage());
    TaskDispatch.target(app);
    proxy = new ApiProxyLocalFactory().create(app);
    Map<String, String> properties = new HashMap<>();
    properties.put(
        "datastore.backing_store", options.storage().resolve("datastore.bin").toString());
    properties.put("datastore.no_storage", "false");
    properties.put("blobstore.backing_store", options.storage().resolve("blobs").toString());
    properties.put("blobstore.no_storage", "false");
    properties.put("task_queue.callback_class", TaskDispatch.class.getName());
    properties.put("mail.log_mail_body", "true");
    proxy.setProperties(properties);
    admin = new AdminCalls(proxy);
  }

  /** How many calls were answered. */
  long calls() {
    return calls.get();
  }

  /** The request id of the latest call, "" before the first. */
  String lastRequestId() {
    return lastRequestId;
  }

  /** Runs one call (blocking for it) and answers with its {@code Response}. */
  RemoteApiPb.Response callBlocking(RemoteApiPb.Request request, double deadlineSeconds) {
    calls.incrementAndGet();
    String service = request.getServiceName();
    String method = request.getMethod();
    lastRequestId = request.getRequestId();
    if (logCalls) {
      log.info("call " + service + "." + method + " request_id=" + request.getRequestId());
    }
    CallEnvironment environment = new CallEnvironment(appId, deadlineSeconds);
    try {
      byte[] payload = request.getRequest().toByteArray();
      byte[] response = admin.callOrNull(service, method, payload);
      if (response == null) {
        response = proxy.makeSyncCall(environment, service, method, payload);
      }
      return RemoteApiPb.Response.newBuilder().setResponse(ByteString.copyFrom(response)).build();
    } catch (ApiProxy.ApplicationException e) {
      return RemoteApiPb.Response.newBuilder()
          .setApplicationError(
              RemoteApiPb.ApplicationError.newBuilder()
                  .setCode(e.getApplicationError())
                  .setDetail(Optional.ofNullable(e.getErrorDetail()).orElse("")))
          .build();
    } catch (ApiProxy.CallNotFoundException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.CALL_NOT_FOUND, "no such call");
    } catch (ApiProxy.ApiDeadlineExceededException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.DEADLINE_EXCEEDED, "deadline exceeded");
    } catch (ApiProxy.CapabilityDisabledException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.CAPABILITY_DISABLED, "capability disabled");
    } catch (ApiProxy.RequestTooLargeException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.REQUEST_TOO_LARGE, "request too large");
    } catch (ApiProxy.ResponseTooLargeException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.RESPONSE_TOO_LARGE, "response too large");
    } catch (ApiProxy.OverQuotaException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.OVER_QUOTA, "over quota");
    } catch (ApiProxy.FeatureNotEnabledException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.FEATURE_DISABLED, "feature not enabled");
    } catch (ApiProxy.CancelledException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.CANCELLED, "cancelled");
    } catch (ApiProxy.ArgumentException e) {
      return rpcError(RemoteApiPb.RpcError.ErrorCode.BAD_REQUEST, "bad request");
    } catch (RuntimeException e) {
      // Logged here, where the developer reads the host's log; the app gets no internals.
      log.log(Level.WARNING, "call " + service + "." + method + " failed", e);
      return rpcError(RemoteApiPb.RpcError.ErrorCode.UNKNOWN, "the call failed");
    }
  }

  private static RemoteApiPb.Response rpcError(RemoteApiPb.RpcError.ErrorCode code, String detail) {
    return RemoteApiPb.Response.newBuilder()
        .setRpcError(RemoteApiPb.RpcError.newBuilder().setCode(code.getNumber()).setDetail(detail))
        .build();
  }

  /** Stops every service: the Datastore writes its data to disk. */
  void stop() {
    proxy.stop();
  }

  /** The environment a call runs in: the app's id and the call's deadline. */
  private static final class CallEnvironment implements ApiProxy.Environment {
    private final String appId;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final long end;

    CallEnvironment(String appId, double deadlineSeconds) {
      this.appId = appId;
      this.end = System.currentTimeMillis() + (long) (deadlineSeconds * 1000);
      attributes.put(API_DEADLINE_KEY, deadlineSeconds);
    }

    @Override
    public String getAppId() {
      return appId;
    }

    @Override
    public String getModuleId() {
      return "default";
    }

    @Override
    public String getVersionId() {
      return "none.1";
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
      return end - System.currentTimeMillis();
    }
  }
}
