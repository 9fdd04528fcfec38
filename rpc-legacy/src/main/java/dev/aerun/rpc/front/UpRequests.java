package dev.aerun.rpc.front;

import com.google.protobuf.ByteString;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.TaskInfo;
import dev.aerun.rpc.proto.TraceContext;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.proto.UserInfo;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.env.AppEnvironment;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;

/**
 * Turns a request the front server received, the request contract's verdict on it and its buffered
 * body into the {@link UPRequest} the runtime runs. Every value the app sees comes from the {@link
 * ContractResult}, the same one HttpConnector mode builds its request from. Public for the
 * micro-benchmark of the translation ({@code FrontTranslationBench}); not an API.
 */
public final class UpRequests {
  private UpRequests() {}

  public static UPRequest build(
      Request request,
      ContractResult contract,
      AppEnvironment environment,
      ByteString body,
      HttpFields trailers,
      boolean bodyOverLimit,
      int bodyErrorStatus) {
    HttpFields received = request.getHeaders();
    HttpRequest.Builder http =
        HttpRequest.newBuilder()
            .setMethod(request.getMethod())
            .setUrl(url(request))
            .setHttpVersion(request.getConnectionMetaData().getHttpVersion().asString())
            .setBody(body)
            .setIsHttps(contract.secure())
            .setTrusted(contract.trustedPeer())
            .setChunked(
                !received.contains(HttpHeader.CONTENT_LENGTH)
                    && (!body.isEmpty() || received.contains(HttpHeader.TRANSFER_ENCODING)))
            .setBodyOverLimit(bodyOverLimit)
            .setBodyErrorStatus(bodyErrorStatus);
    for (HttpField field : contract.headers()) {
      http.addHeaders(
          dev.aerun.rpc.proto.HttpHeader.newBuilder()
              .setName(field.getName())
              .setValue(nonNull(field.getValue())));
    }
    if (trailers != null) {
      for (HttpField field : trailers) {
        http.addTrailers(
            dev.aerun.rpc.proto.HttpHeader.newBuilder()
                .setName(field.getName())
                .setValue(nonNull(field.getValue())));
      }
    }
    InetSocketAddress remote = contract.remoteAddress();
    if (remote != null && remote.getAddress() != null) {
      http.setUserIp(remote.getAddress().getHostAddress()).setUserPort(remote.getPort());
    }
    SocketAddress local = request.getConnectionMetaData().getLocalSocketAddress();
    if (local instanceof InetSocketAddress inet && inet.getAddress() != null) {
      http.setLocalAddress(inet.getAddress().getHostAddress()).setLocalPort(inet.getPort());
    }

    UPRequest.Builder up =
        UPRequest.newBuilder()
            .setAppId(environment.applicationId())
            .setVersionId(environment.version())
            .setServiceId(environment.service())
            .setRequestLogId(nonNull(contract.requestLogId()))
            .setDefaultVersionHostname(nonNull(contract.defaultVersionHostname()))
            // 0 means "no deadline" on the wire; a deadline of 0 ms is already over on arrival,
            // and the gRPC deadline (see FrontHandler) carries it.
            .setTimeoutMillis(Math.max(0, contract.timeoutMillis()))
            .setApiTicket(nonNull(contract.apiTicket()))
            .setSkipAdminCheck(contract.skipAdminCheck())
            .setRequest(http);
    dev.aerun.runtime.contract.TraceContext trace = contract.trace();
    if (trace != null) {
      up.setTrace(
          TraceContext.newBuilder()
              .setTraceId(trace.traceId())
              .setSpanId(nonNull(trace.spanId()))
              .setSampled(trace.sampled()));
    }
    dev.aerun.runtime.contract.UserInfo user = contract.user();
    if (user != null) {
      up.setUser(
          UserInfo.newBuilder()
              .setEmail(nonNull(user.email()))
              .setId(nonNull(user.id()))
              .setNickname(nonNull(user.nickname()))
              .setIsAdmin(user.admin())
              .setAuthDomain(nonNull(user.authDomain()))
              .setOrganization(nonNull(user.organization())));
    }
    dev.aerun.runtime.contract.TaskInfo task = contract.task();
    if (task != null) {
      up.setTask(
          TaskInfo.newBuilder()
              .setQueueName(nonNull(task.queueName()))
              .setTaskName(nonNull(task.taskName()))
              .setRetryCount(task.retryCount())
              .setCron(task.cron()));
    }
    return up.build();
  }

  /**
   * The URL as the front server received it: its own scheme (https only if it terminates TLS
   * itself), the {@code Host} header as sent, and the raw, still encoded path and query.
   */
  static String url(Request request) {
    HttpURI uri = request.getHttpURI();
    ConnectionMetaData connection = request.getConnectionMetaData();
    String host = request.getHeaders().get(HttpHeader.HOST);
    String authority = host != null && !host.isEmpty() ? host : authority(uri, connection);
    String pathQuery = uri.getPathQuery();
    return (connection.isSecure() ? "https" : "http")
        + "://"
        + authority
        + (pathQuery == null || pathQuery.isEmpty() ? "/" : pathQuery);
  }

  /** No Host header (HTTP/1.0): the authority Jetty settled on, i.e. the server's own address. */
  private static String authority(HttpURI uri, ConnectionMetaData connection) {
    String host = uri.getHost();
    int port = uri.getPort();
    if (host == null || host.isEmpty()) {
      SocketAddress local = connection.getLocalSocketAddress();
      if (local instanceof InetSocketAddress inet) {
        host = inet.getHostString();
        port = inet.getPort();
      } else {
        host = "localhost";
      }
    }
    if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return port > 0 ? host + ":" + port : host;
  }

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
