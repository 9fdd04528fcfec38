package dev.aerun.rpc.runtime;

import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.contract.IpLiterals;
import dev.aerun.runtime.contract.TaskInfo;
import dev.aerun.runtime.contract.TraceContext;
import dev.aerun.runtime.contract.UserInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.util.URIUtil;

/**
 * Turns a {@link UPRequest} into what Jetty's HTTP/1.1 connection would have built from the same
 * request in HttpConnector mode: the request metadata (method, URI, version, header fields, length)
 * and the request contract's verdict, which the front end already decided and sent along. Public
 * for the micro-benchmark of the translation ({@code UpRequestTranslatorBench}); not an API.
 */
public final class UpRequestTranslator {
  /** The address the app sees when the front end sent none: unknown, as 0.0.0.0:0. */
  private static final InetAddress ANY = IpLiterals.parse("0.0.0.0");

  private UpRequestTranslator() {}

  /**
   * One translated request.
   *
   * @param metaData the request line and headers as Jetty's parser would have produced them
   * @param contract the contract's verdict: addresses, security, attributes
   * @param local the front server's address the request arrived on
   * @param trailers the trailer fields after the body, or null when there were none
   */
  public record Translated(
      MetaData.Request metaData,
      ContractResult contract,
      InetSocketAddress local,
      HttpFields trailers) {}

  /** A request the runtime cannot run: the front end sent something malformed. */
  public static final class BadRequestException extends Exception {
    BadRequestException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Translates {@code up}, received at {@code receivedNanos} on the {@link System#nanoTime()} clock
   * (the request deadline counts from there: the front end's clock may be another process's).
   */
  public static Translated translate(UPRequest up, long receivedNanos) throws BadRequestException {
    HttpRequest http = up.getRequest();
    String method = http.getMethod();
    if (method.isEmpty()) {
      throw new BadRequestException("no method");
    }
    HttpVersion version = HttpVersion.fromString(http.getHttpVersion());
    if (version == null) {
      version = HttpVersion.HTTP_1_1;
    }

    HttpFields.Mutable fields = HttpFields.build(Math.max(1, http.getHeadersCount()));
    long contentLength = -1;
    for (int i = 0, n = http.getHeadersCount(); i < n; i++) {
      dev.aerun.rpc.proto.HttpHeader header = http.getHeaders(i);
      HttpField field;
      try {
        field = new HttpField(header.getName(), header.getValue());
        // Jetty's parser gives Host as a parsed host/port field and reads the length from
        // Content-Length: do the same, so the app's view does not depend on the mode.
        if (field.getHeader() == HttpHeader.HOST) {
          // The protected constructor keeps the value exactly as sent, as the parser does.
          field = new HostPortHttpField(HttpHeader.HOST, field.getName(), field.getValue()) {};
        } else if (field.getHeader() == HttpHeader.CONTENT_LENGTH) {
          contentLength = field.getLongValue();
        }
      } catch (RuntimeException e) {
        throw new BadRequestException("bad header " + header.getName());
      }
      fields.add(field);
    }

    HttpURI uri = uri(http);
    MetaData.Request metaData =
        new MetaData.Request(receivedNanos, method, uri, version, fields, contentLength) {
          @Override
          public boolean is100ContinueExpected() {
            // The front end read the whole body before the call: nothing is left to continue.
            return false;
          }
        };

    InetSocketAddress remote = new InetSocketAddress(address(http.getUserIp()), http.getUserPort());
    InetSocketAddress local =
        new InetSocketAddress(address(http.getLocalAddress()), http.getLocalPort());
    ContractResult.Builder contract =
        ContractResult.builder()
            .trustedPeer(http.getTrusted())
            .remoteAddress(remote, false)
            .secure(http.getIsHttps(), false)
            .headers(fields, false)
            .requestLogId(emptyToNull(up.getRequestLogId()))
            .defaultVersionHostname(emptyToNull(up.getDefaultVersionHostname()))
            .apiTicket(emptyToNull(up.getApiTicket()))
            .skipAdminCheck(up.getSkipAdminCheck());
    long timeoutMillis = up.getTimeoutMillis();
    if (timeoutMillis > 0) {
      long nanos =
          timeoutMillis > Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : timeoutMillis * 1_000_000;
      contract.deadline(timeoutMillis, saturatedAdd(receivedNanos, nanos));
    }
    if (up.hasTrace() && !up.getTrace().getTraceId().isEmpty()) {
      dev.aerun.rpc.proto.TraceContext trace = up.getTrace();
      contract.trace(
          new TraceContext(trace.getTraceId(), emptyToNull(trace.getSpanId()), trace.getSampled()));
    }
    if (up.hasUser() && !up.getUser().getEmail().isEmpty()) {
      dev.aerun.rpc.proto.UserInfo user = up.getUser();
      contract.user(
          new UserInfo(
              user.getEmail(),
              emptyToNull(user.getId()),
              emptyToNull(user.getNickname()),
              user.getIsAdmin(),
              emptyToNull(user.getAuthDomain()),
              emptyToNull(user.getOrganization())));
    }
    if (up.hasTask()) {
      dev.aerun.rpc.proto.TaskInfo task = up.getTask();
      contract.task(
          new TaskInfo(
              emptyToNull(task.getQueueName()),
              emptyToNull(task.getTaskName()),
              task.getRetryCount() < 0 ? -1 : task.getRetryCount(),
              task.getCron()));
    }
    return new Translated(metaData, contract.build(), local, trailers(http));
  }

  /**
   * The URI as HttpConnector mode's request carries it: the front end's scheme, host and port, with
   * a default port dropped as Jetty's parser does, then the {@code https} scheme if the app must
   * see the request as secure (the authority stays, as the request contract leaves it).
   */
  static HttpURI uri(HttpRequest http) throws BadRequestException {
    String url = http.getUrl();
    // The asterisk form (OPTIONS * HTTP/1.1) travels as the authority followed by "*": its path
    // is "*", as Jetty's parser gives it in HttpConnector mode.
    boolean asterisk = url.endsWith("*") && url.indexOf('/', url.indexOf("://") + 3) < 0;
    HttpURI.Mutable uri;
    try {
      uri = HttpURI.build(asterisk ? url.substring(0, url.length() - 1) : url);
    } catch (RuntimeException e) {
      throw new BadRequestException("bad url");
    }
    if (uri.getScheme() == null || uri.getHost() == null) {
      throw new BadRequestException("url is not absolute");
    }
    if (uri.getPort() == URIUtil.getDefaultPortForScheme(uri.getScheme())) {
      uri.port(-1);
    }
    if (asterisk) {
      uri.path("*");
    } else if (uri.getPath() == null || uri.getPath().isEmpty()) {
      uri.path("/");
    }
    if (http.getIsHttps() && !HttpScheme.HTTPS.is(uri.getScheme())) {
      uri.scheme(HttpScheme.HTTPS);
    }
    return uri.asImmutable();
  }

  /** The trailers as the front end sent them (the contract already filtered them), or null. */
  private static HttpFields trailers(HttpRequest http) throws BadRequestException {
    int count = http.getTrailersCount();
    if (count == 0) {
      return null;
    }
    HttpFields.Mutable trailers = HttpFields.build(count);
    for (int i = 0; i < count; i++) {
      dev.aerun.rpc.proto.HttpHeader trailer = http.getTrailers(i);
      try {
        trailers.add(new HttpField(trailer.getName(), trailer.getValue()));
      } catch (RuntimeException e) {
        throw new BadRequestException("bad trailer " + trailer.getName());
      }
    }
    return trailers.asImmutable();
  }

  private static InetAddress address(String literal) {
    InetAddress address = IpLiterals.parse(literal);
    return address == null ? ANY : address;
  }

  private static String emptyToNull(String value) {
    return value.isEmpty() ? null : value;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
