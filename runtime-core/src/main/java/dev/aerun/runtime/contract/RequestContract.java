package dev.aerun.runtime.contract;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.HostPort;

/**
 * The request contract of both serving modes (docs/REQUESTS.md): from a request's header fields,
 * its TCP peer and whether its connection is secure, decides what the app sees.
 *
 * <ul>
 *   <li>From an untrusted peer, every platform header ({@code X-AppEngine-*}, {@code
 *       X-Google-Internal-*}, {@code Forwarded}, {@code X-Forwarded-*}) is removed and ignored, so
 *       a client cannot forge a cron request, a user or its own address.
 *   <li>From a trusted peer, platform headers are honoured. Private ones ({@code X-AppEngine-}
 *       {@code Api-Ticket, Https, User-IP, User-*, Auth-Domain, Trusted-IP-Request, Gaia-*,
 *       LOAS-Peer-Username, AppServer-*, Default-Version-Hostname, Request-Log-Id, Timeout-Ms}, and
 *       {@code X-Google-Internal-*}) are hidden from the app unless {@link
 *       ContractOptions#allHeaders()}; the others (task, cron, forwarding) stay visible.
 *   <li>From a peer trusted for forwarding only ({@link ContractOptions#forwardedFrom()}), the
 *       forwarding headers ({@code Forwarded}, {@code X-Forwarded-*}) are honoured and stay
 *       visible; every other platform header is removed and ignored, as from an untrusted peer.
 *   <li>A trusted or forwarding peer's {@code X-Forwarded-For}/{@code X-Forwarded-Proto} (or {@code
 *       Forwarded}) give the client's address and scheme by the rules of {@link ForwardedHeaders};
 *       a trusted peer's {@code X-AppEngine-User-IP} and {@code X-AppEngine-Https} come first.
 *   <li>Trace headers ({@code X-Cloud-Trace-Context}, {@code traceparent}) are parsed from anyone
 *       and stay visible; invalid values are ignored.
 * </ul>
 *
 * <p>Header names match case-insensitively. Immutable and thread-safe; {@link #apply} allocates
 * nothing but its result when the request carries no platform header.
 */
public final class RequestContract {
  private static final String APPENGINE_PREFIX = "x-appengine-";
  private static final String GOOGLE_INTERNAL_PREFIX = "x-google-internal-";
  private static final String FORWARDED_PREFIX = "x-forwarded-";
  private static final String SKIP_ADMIN_CHECK_HEADER = "X-Google-Internal-SkipAdminCheck";
  private static final Map<String, Role> APPENGINE_HEADERS = appEngineHeaders();

  private final ContractOptions options;
  private final LongSupplier nanoClock;

  public RequestContract(ContractOptions options) {
    this(options, System::nanoTime);
  }

  /** For tests: {@code nanoClock} replaces {@link System#nanoTime()} for deadlines. */
  RequestContract(ContractOptions options, LongSupplier nanoClock) {
    this.options = options;
    this.nanoClock = nanoClock;
  }

  public ContractOptions options() {
    return options;
  }

  /**
   * Applies the contract to a request as the server received it, its peer the connection's remote
   * address: what both modes' public servers do.
   */
  public ContractResult apply(Request request) {
    SocketAddress peer = request.getConnectionMetaData().getRemoteSocketAddress();
    String host = options.trustPolicy().checksHost() ? requestHost(request) : null;
    if (peer instanceof InetSocketAddress inet) {
      return apply(request.getHeaders(), inet, request.isSecure(), host, false);
    }
    // A peer on a Unix-domain socket has no address: trusted only as "unix", and the app sees
    // NO_ADDRESS (unless a trusted front end names the user's).
    return apply(request.getHeaders(), null, request.isSecure(), host, peer != null);
  }

  /**
   * Whether any of {@code headers} is one {@link #apply} reads, removes or hides (a platform,
   * private, forwarding or trace field). Without one, {@link #apply} changes nothing whatever the
   * peer: the app sees the request as it came, with no attributes set.
   */
  public static boolean concerns(HttpFields headers) {
    // Indexed: the request's own fields answer getField(i) from their array, with no iterator
    // allocated on every request.
    for (int i = 0, n = headers.size(); i < n; i++) {
      if (classify(headers.getField(i).getName()) != Role.OTHER) {
        return true;
      }
    }
    return false;
  }

  /** The remote address the app sees for a peer without one (on a Unix-domain socket). */
  public static final InetSocketAddress NO_ADDRESS = new InetSocketAddress("0.0.0.0", 0);

  /**
   * The host {@code request} names, without its port: its {@code Host} header, else the authority
   * of its target (HTTP/2); null when it names none or the header is malformed.
   */
  public static String requestHost(Request request) {
    String header = request.getHeaders().get(HttpHeader.HOST);
    return header != null ? hostOf(header) : request.getHttpURI().getHost();
  }

  private static String hostOf(String hostHeader) {
    try {
      return new HostPort(hostHeader.trim()).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Applies the contract to one request.
   *
   * @param headers the request's header fields, as received
   * @param peer the TCP peer (the front end, a proxy or the client); null is never trusted unless
   *     the policy trusts all
   * @param connectionSecure whether the connection itself is secure (TLS)
   */
  public ContractResult apply(
      HttpFields headers, InetSocketAddress peer, boolean connectionSecure) {
    String host = options.trustPolicy().checksHost() ? headers.get(HttpHeader.HOST) : null;
    return apply(headers, peer, connectionSecure, host == null ? null : hostOf(host));
  }

  /**
   * As {@link #apply(HttpFields, InetSocketAddress, boolean)}, for a request naming {@code host}
   * (without port; null for none), which a policy that {@link TrustPolicy#checksHost checks hosts}
   * needs.
   */
  public ContractResult apply(
      HttpFields headers, InetSocketAddress peer, boolean connectionSecure, String host) {
    return apply(headers, peer, connectionSecure, host, false);
  }

  private ContractResult apply(
      HttpFields headers,
      InetSocketAddress peer,
      boolean connectionSecure,
      String host,
      boolean unixPeer) {
    InetAddress peerAddress = peer == null ? null : peer.getAddress();
    boolean trusted =
        unixPeer
            ? options.trustPolicy().isTrustedUnixPeer(host)
            : options.trustPolicy().isTrusted(peerAddress, host);
    boolean forwarding =
        trusted
            || (unixPeer
                ? options.forwardedFrom().isTrustedUnixPeer(null)
                : options.forwardedFrom().isTrusted(peerAddress));
    boolean allHeaders = options.allHeaders();

    int removed = 0;
    String userIp = null;
    String https = null;
    String timeout = null;
    String logId = null;
    String defaultVersionHostname = null;
    String cloudTrace = null;
    String traceparent = null;
    String email = null;
    String userId = null;
    String nickname = null;
    String isAdmin = null;
    String authDomain = null;
    String organization = null;
    String queueName = null;
    String taskName = null;
    String retryCount = null;
    String cron = null;
    String apiTicket = null;
    String skipAdminCheck = null;
    String forwardedFor = null;
    String forwardedProto = null;
    String forwarded = null;

    for (HttpField field : headers) {
      Role role = classify(field.getName());
      if (role == Role.OTHER) {
        continue;
      }
      if (!isVisible(role, trusted, forwarding, allHeaders)) {
        removed++;
      }
      if (role.platform && !(trusted || role.forwarding && forwarding)) {
        continue;
      }
      String value = field.getValue();
      // The first occurrence wins.
      switch (role) {
        case USER_IP -> userIp = userIp == null ? value : userIp;
        case HTTPS -> https = https == null ? value : https;
        case TIMEOUT_MS -> timeout = timeout == null ? value : timeout;
        case REQUEST_LOG_ID -> logId = logId == null ? value : logId;
        case DEFAULT_VERSION_HOSTNAME ->
            defaultVersionHostname =
                defaultVersionHostname == null ? value : defaultVersionHostname;
        case CLOUD_TRACE -> cloudTrace = cloudTrace == null ? value : cloudTrace;
        case TRACEPARENT -> traceparent = traceparent == null ? value : traceparent;
        case USER_EMAIL -> email = email == null ? value : email;
        case USER_ID -> userId = userId == null ? value : userId;
        case USER_NICKNAME -> nickname = nickname == null ? value : nickname;
        case USER_IS_ADMIN -> isAdmin = isAdmin == null ? value : isAdmin;
        case AUTH_DOMAIN -> authDomain = authDomain == null ? value : authDomain;
        case USER_ORGANIZATION -> organization = organization == null ? value : organization;
        case QUEUE_NAME -> queueName = queueName == null ? value : queueName;
        case TASK_NAME -> taskName = taskName == null ? value : taskName;
        case TASK_RETRY_COUNT -> retryCount = retryCount == null ? value : retryCount;
        case CRON -> cron = cron == null ? value : cron;
        case API_TICKET -> apiTicket = apiTicket == null ? value : apiTicket;
        case SKIP_ADMIN_CHECK -> skipAdminCheck = skipAdminCheck == null ? value : skipAdminCheck;
        // Every occurrence counts: repeated fields are one list, in order.
        case X_FORWARDED_FOR -> forwardedFor = joined(forwardedFor, value);
        case X_FORWARDED_PROTO -> forwardedProto = joined(forwardedProto, value);
        case FORWARDED -> forwarded = joined(forwarded, value);
        default -> {}
      }
    }

    InetSocketAddress remote = unixPeer ? NO_ADDRESS : peer;
    boolean remoteFromHeader = false;
    boolean forwardedHttps = false;
    if (forwardedFor != null || forwardedProto != null || forwarded != null) {
      ForwardedHeaders.Forwarding hops =
          ForwardedHeaders.resolve(forwardedFor, forwardedProto, forwarded, this::isProxyAddress);
      if (hops.client() != null) {
        remote = hops.client();
        remoteFromHeader = true;
      }
      forwardedHttps = hops.https();
    }
    InetAddress userAddress = userIp == null ? null : IpLiterals.parse(userIp.trim());
    if (userAddress != null) {
      remote = new InetSocketAddress(userAddress, 0);
      remoteFromHeader = true;
    }

    boolean secureFromHeader =
        !connectionSecure
            && (https != null && https.trim().equalsIgnoreCase("on") || forwardedHttps);
    long timeoutMillis = parseNonNegativeLong(timeout);
    long deadlineNanos = 0;
    if (timeoutMillis >= 0) {
      long nanos =
          timeoutMillis > Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : timeoutMillis * 1_000_000;
      deadlineNanos = nanoClock.getAsLong() + nanos;
    }

    TraceContext trace = TraceContext.parseCloudTraceContext(cloudTrace);
    if (trace == null) {
      trace = TraceContext.parseTraceparent(traceparent);
    }

    UserInfo user = null;
    if (email != null && !email.isEmpty()) {
      boolean admin =
          isAdmin != null
              && (isAdmin.trim().equals("1") || isAdmin.trim().equalsIgnoreCase("true"));
      user = new UserInfo(email, userId, nickname, admin, authDomain, organization);
    }

    TaskInfo task = null;
    if (queueName != null || taskName != null || retryCount != null || cron != null) {
      long retries = parseNonNegativeLong(retryCount);
      task =
          new TaskInfo(
              queueName,
              taskName,
              retries > Integer.MAX_VALUE ? -1 : (int) retries,
              cron != null && cron.trim().equalsIgnoreCase("true"));
    }

    HttpFields appHeaders =
        removed == 0 ? headers : without(headers, removed, trusted, forwarding, allHeaders);
    return new ContractResult(
        trusted,
        remote,
        remoteFromHeader,
        connectionSecure || secureFromHeader,
        secureFromHeader,
        timeoutMillis,
        deadlineNanos,
        logId,
        defaultVersionHostname,
        trace,
        user,
        task,
        skipAdminCheck != null && skipAdminCheck.trim().equalsIgnoreCase("true"),
        options.apiTicket() ? apiTicket : null,
        appHeaders,
        removed != 0);
  }

  /** A proxy's own address, skipped in a chain of forwarding hops. */
  private boolean isProxyAddress(InetAddress address) {
    return options.trustPolicy().isProxyAddress(address)
        || options.forwardedFrom().isProxyAddress(address);
  }

  private static String joined(String list, String value) {
    return list == null ? value : list + "," + value;
  }

  /**
   * The request's trailer fields (chunked trailers) as the app may see them, by the rule of {@link
   * #apply} for header fields: platform fields from an untrusted peer are removed, private ones are
   * hidden unless {@link ContractOptions#allHeaders()}. Trailers never change what {@link #apply}
   * decided (user, task, address, deadline): they arrive after the app started. Forwarding fields
   * are kept only from a peer trusted for every platform header (a front end that sets forwarding
   * headers sets them before the body, never after).
   *
   * @param trailers the trailer fields as received, or null when there were none
   * @param trustedPeer the verdict of {@link #apply} on the request's peer ({@link
   *     ContractResult#trustedPeer()})
   * @return {@code trailers} itself when nothing is removed, otherwise a filtered copy; null for
   *     null
   */
  public HttpFields trailers(HttpFields trailers, boolean trustedPeer) {
    if (trailers == null) {
      return null;
    }
    boolean allHeaders = options.allHeaders();
    int removed = 0;
    for (HttpField field : trailers) {
      if (!isVisible(classify(field.getName()), trustedPeer, trustedPeer, allHeaders)) {
        removed++;
      }
    }
    return removed == 0
        ? trailers
        : without(trailers, removed, trustedPeer, trustedPeer, allHeaders);
  }

  private static HttpFields without(
      HttpFields headers, int removed, boolean trusted, boolean forwarding, boolean allHeaders) {
    HttpFields.Mutable visible = HttpFields.build(Math.max(1, headers.size() - removed));
    for (HttpField field : headers) {
      if (isVisible(classify(field.getName()), trusted, forwarding, allHeaders)) {
        visible.add(field);
      }
    }
    return visible.asImmutable();
  }

  /**
   * Whether the app sees a header of {@code role}, from a peer {@code trusted} for platform headers
   * and trusted for {@code forwarding} ones (implied by the former).
   */
  private static boolean isVisible(
      Role role, boolean trusted, boolean forwarding, boolean allHeaders) {
    if (role.platform && !(trusted || role.forwarding && forwarding)) {
      return false;
    }
    return !role.hidden || allHeaders;
  }

  private static long parseNonNegativeLong(String value) {
    if (value == null) {
      return -1;
    }
    try {
      long parsed = Long.parseLong(value.trim());
      return parsed < 0 ? -1 : parsed;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Classifies a header name, case-insensitively, without allocating. Public for the
   * micro-benchmark of the header policy ({@code HeaderPolicyBench}); not an API.
   */
  public static Role classify(String name) {
    int length = name.length();
    if (length == 0) {
      return Role.OTHER;
    }
    switch (name.charAt(0)) {
      case 'x', 'X' -> {
        if (startsWithIgnoreCase(name, APPENGINE_PREFIX)) {
          Role role = APPENGINE_HEADERS.get(name);
          if (role != null) {
            return role;
          }
          int at = APPENGINE_PREFIX.length();
          if (name.regionMatches(true, at, "user-", 0, 5)
              || name.regionMatches(true, at, "gaia-", 0, 5)
              || name.regionMatches(true, at, "appserver-", 0, 10)) {
            return Role.PRIVATE;
          }
          return Role.PLATFORM;
        }
        if (startsWithIgnoreCase(name, GOOGLE_INTERNAL_PREFIX)) {
          return name.equalsIgnoreCase(SKIP_ADMIN_CHECK_HEADER)
              ? Role.SKIP_ADMIN_CHECK
              : Role.PRIVATE;
        }
        if (startsWithIgnoreCase(name, FORWARDED_PREFIX)) {
          int at = FORWARDED_PREFIX.length();
          if (length == at + 3 && name.regionMatches(true, at, "for", 0, 3)) {
            return Role.X_FORWARDED_FOR;
          }
          if (length == at + 5 && name.regionMatches(true, at, "proto", 0, 5)) {
            return Role.X_FORWARDED_PROTO;
          }
          return Role.FORWARDING;
        }
        if (name.equalsIgnoreCase("x-cloud-trace-context")) {
          return Role.CLOUD_TRACE;
        }
        return Role.OTHER;
      }
      case 'f', 'F' -> {
        return name.equalsIgnoreCase("forwarded") ? Role.FORWARDED : Role.OTHER;
      }
      case 't', 'T' -> {
        return name.equalsIgnoreCase("traceparent") ? Role.TRACEPARENT : Role.OTHER;
      }
      default -> {
        return Role.OTHER;
      }
    }
  }

  private static boolean startsWithIgnoreCase(String name, String lowerPrefix) {
    return name.length() >= lowerPrefix.length()
        && name.regionMatches(true, 0, lowerPrefix, 0, lowerPrefix.length());
  }

  private static Map<String, Role> appEngineHeaders() {
    Map<String, Role> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    map.put("X-AppEngine-User-IP", Role.USER_IP);
    map.put("X-AppEngine-Https", Role.HTTPS);
    map.put("X-AppEngine-Timeout-Ms", Role.TIMEOUT_MS);
    map.put("X-AppEngine-Request-Log-Id", Role.REQUEST_LOG_ID);
    map.put("X-AppEngine-Default-Version-Hostname", Role.DEFAULT_VERSION_HOSTNAME);
    map.put("X-AppEngine-User-Email", Role.USER_EMAIL);
    map.put("X-AppEngine-User-Id", Role.USER_ID);
    map.put("X-AppEngine-User-Nickname", Role.USER_NICKNAME);
    map.put("X-AppEngine-User-Is-Admin", Role.USER_IS_ADMIN);
    map.put("X-AppEngine-Auth-Domain", Role.AUTH_DOMAIN);
    map.put("X-AppEngine-User-Auth-Domain", Role.AUTH_DOMAIN);
    map.put("X-AppEngine-User-Organization", Role.USER_ORGANIZATION);
    map.put("X-AppEngine-Api-Ticket", Role.API_TICKET);
    map.put("X-AppEngine-Trusted-IP-Request", Role.PRIVATE);
    map.put("X-AppEngine-LOAS-Peer-Username", Role.PRIVATE);
    map.put("X-AppEngine-QueueName", Role.QUEUE_NAME);
    map.put("X-AppEngine-TaskName", Role.TASK_NAME);
    map.put("X-AppEngine-TaskRetryCount", Role.TASK_RETRY_COUNT);
    map.put("X-AppEngine-Cron", Role.CRON);
    return map;
  }

  /** What a header means to the contract. */
  public enum Role {
    /** Not a platform header: always visible, never read. */
    OTHER(false, false),
    /** Trace headers anyone may send: read, always visible. */
    CLOUD_TRACE(false, false),
    TRACEPARENT(false, false),
    /** Platform headers visible to the app when trusted (task, cron, other). */
    PLATFORM(true, false),
    /**
     * Forwarding headers: honoured and visible from a peer trusted for all platform headers or for
     * forwarding ones ({@link ContractOptions#forwardedFrom()}).
     */
    X_FORWARDED_FOR(true, false, true),
    X_FORWARDED_PROTO(true, false, true),
    FORWARDED(true, false, true),
    /** The other {@code X-Forwarded-*} headers (host, port, server): visible, never read. */
    FORWARDING(true, false, true),
    QUEUE_NAME(true, false),
    TASK_NAME(true, false),
    TASK_RETRY_COUNT(true, false),
    CRON(true, false),
    /** Private platform headers: hidden unless all headers are kept. */
    PRIVATE(true, true),
    USER_IP(true, true),
    HTTPS(true, true),
    TIMEOUT_MS(true, true),
    REQUEST_LOG_ID(true, true),
    DEFAULT_VERSION_HOSTNAME(true, true),
    USER_EMAIL(true, true),
    USER_ID(true, true),
    USER_NICKNAME(true, true),
    USER_IS_ADMIN(true, true),
    AUTH_DOMAIN(true, true),
    USER_ORGANIZATION(true, true),
    API_TICKET(true, true),
    SKIP_ADMIN_CHECK(true, true);

    /** Only honoured from a trusted peer; removed otherwise. */
    final boolean platform;

    /** Hidden from the app unless {@code appengine.use.allheaders}. */
    final boolean hidden;

    /** Honoured from a peer trusted for forwarding headers only, too. */
    final boolean forwarding;

    Role(boolean platform, boolean hidden) {
      this(platform, hidden, false);
    }

    Role(boolean platform, boolean hidden, boolean forwarding) {
      this.platform = platform;
      this.hidden = hidden;
      this.forwarding = forwarding;
    }
  }
}
