package dev.aerun.apihost;

import com.google.appengine.repackaged.com.google.protobuf.ExtensionRegistry;
import com.google.appengine.repackaged.com.google.protobuf.InvalidProtocolBufferException;
import com.google.apphosting.base.protos.api_bytes.RemoteApiPb;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The host's paths, behind {@link GuardHandler}:
 *
 * <ul>
 *   <li>{@code POST /rpc_http}: one remote-API call, as App Engine's API host takes it ({@code
 *       X-Google-RPC-Service-Endpoint: app-engine-apis}, {@code X-Google-RPC-Service-Method:
 *       /VMRemoteAPI.CallRemoteAPI}, {@code X-Google-RPC-Service-Deadline} in seconds, a {@code
 *       Request} envelope); answered 200 with a {@code Response} envelope, 400 when the headers or
 *       the envelope are wrong.
 *   <li>{@code POST /_aerun/app} with {@code PORT}: the app's runtime serves on {@code
 *       127.0.0.1:PORT} (where push tasks go).
 *   <li>{@code GET /_aerun/status}: calls answered and the latest request id, as text.
 * </ul>
 *
 * <p>Blocks its thread for each call: the local services are synchronous; the host's thread pool is
 * sized for the calls of a developer's app.
 */
final class RpcHandler extends Handler.Abstract {
  /** A service's largest message and the envelope around it. */
  static final int MAX_REQUEST_BYTES = 50 * 1024 * 1024 + 4096;

  private final LocalServices services;
  private final AppServer app;

  RpcHandler(LocalServices services, AppServer app) {
    this.services = services;
    this.app = app;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    if (path.equals("/rpc_http") && HttpMethod.POST.is(method)) {
      callBlocking(request, response, callback);
    } else if (path.equals("/_aerun/app") && HttpMethod.POST.is(method)) {
      String body = Content.Source.asString(request, StandardCharsets.US_ASCII).trim();
      try {
        app.served(Integer.parseInt(body));
      } catch (NumberFormatException e) {
        Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400, "a port");
        return true;
      }
      response.setStatus(HttpStatus.NO_CONTENT_204);
      callback.succeeded();
    } else if (path.equals("/_aerun/status") && HttpMethod.GET.is(method)) {
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
      String status =
          "calls=" + services.calls() + "\nlast_request_id=" + services.lastRequestId() + "\n";
      response.write(true, ByteBuffer.wrap(status.getBytes(StandardCharsets.UTF_8)), callback);
    } else {
      Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
    }
    return true;
  }

  private void callBlocking(Request request, Response response, Callback callback)
      throws IOException {
    Double deadline = deadlineOrNull(request);
    if (deadline == null
        || !"app-engine-apis".equals(request.getHeaders().get("X-Google-RPC-Service-Endpoint"))
        || !"/VMRemoteAPI.CallRemoteAPI"
            .equals(request.getHeaders().get("X-Google-RPC-Service-Method"))) {
      Response.writeError(
          request,
          response,
          callback,
          HttpStatus.BAD_REQUEST_400,
          "X-Google-RPC-Service-Endpoint, -Method and -Deadline are required");
      return;
    }
    if (request.getLength() > MAX_REQUEST_BYTES) {
      Response.writeError(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413);
      return;
    }
    RemoteApiPb.Request call;
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
      if (body.length > MAX_REQUEST_BYTES) {
        Response.writeError(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413);
        return;
      }
      call = RemoteApiPb.Request.parseFrom(body, ExtensionRegistry.getEmptyRegistry());
    } catch (InvalidProtocolBufferException e) {
      Response.writeError(
          request, response, callback, HttpStatus.BAD_REQUEST_400, "not a Request envelope");
      return;
    }
    byte[] answer = services.callBlocking(call, deadline).toByteArray();
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.length);
    response.write(true, ByteBuffer.wrap(answer), callback);
  }

  private static Double deadlineOrNull(Request request) {
    String value = request.getHeaders().get("X-Google-RPC-Service-Deadline");
    if (value == null) {
      return null;
    }
    try {
      double seconds = Double.parseDouble(value.trim());
      return seconds > 0 && seconds < 86_400 ? seconds : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
