package dev.aerun.runtime.contract;

import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpFields;

/**
 * What the request contract decided for one request: the values the app must see. Immutable. Both
 * serving modes build their request from it, so they cannot disagree.
 */
public final class ContractResult {
  private final boolean trustedPeer;
  private final InetSocketAddress remoteAddress;
  private final boolean remoteAddressFromHeader;
  private final boolean secure;
  private final boolean secureFromHeader;
  private final long timeoutMillis;
  private final long deadlineNanos;
  private final String requestLogId;
  private final String defaultVersionHostname;
  private final TraceContext trace;
  private final UserInfo user;
  private final TaskInfo task;
  private final boolean skipAdminCheck;
  private final String apiTicket;
  private final HttpFields headers;
  private final boolean headersChanged;

  ContractResult(
      boolean trustedPeer,
      InetSocketAddress remoteAddress,
      boolean remoteAddressFromHeader,
      boolean secure,
      boolean secureFromHeader,
      long timeoutMillis,
      long deadlineNanos,
      String requestLogId,
      String defaultVersionHostname,
      TraceContext trace,
      UserInfo user,
      TaskInfo task,
      boolean skipAdminCheck,
      String apiTicket,
      HttpFields headers,
      boolean headersChanged) {
    this.trustedPeer = trustedPeer;
    this.remoteAddress = remoteAddress;
    this.remoteAddressFromHeader = remoteAddressFromHeader;
    this.secure = secure;
    this.secureFromHeader = secureFromHeader;
    this.timeoutMillis = timeoutMillis;
    this.deadlineNanos = deadlineNanos;
    this.requestLogId = requestLogId;
    this.defaultVersionHostname = defaultVersionHostname;
    this.trace = trace;
    this.user = user;
    this.task = task;
    this.skipAdminCheck = skipAdminCheck;
    this.apiTicket = apiTicket;
    this.headers = headers;
    this.headersChanged = headersChanged;
  }

  /**
   * A builder for a result decided elsewhere: legacy mode's runtime rebuilds, from what the front
   * end sent, the result the front end's {@link RequestContract} decided. Everything starts absent:
   * no headers, no deadline, no attributes.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link ContractResult} value by value. Not thread-safe; build once. */
  public static final class Builder {
    private boolean trustedPeer;
    private InetSocketAddress remoteAddress;
    private boolean remoteAddressFromHeader;
    private boolean secure;
    private boolean secureFromHeader;
    private long timeoutMillis = -1;
    private long deadlineNanos;
    private String requestLogId;
    private String defaultVersionHostname;
    private TraceContext trace;
    private UserInfo user;
    private TaskInfo task;
    private boolean skipAdminCheck;
    private String apiTicket;
    private HttpFields headers = HttpFields.EMPTY;
    private boolean headersChanged;

    private Builder() {}

    /** See {@link ContractResult#trustedPeer()}. */
    public Builder trustedPeer(boolean value) {
      trustedPeer = value;
      return this;
    }

    /**
     * The remote address the app sees, and whether it came from a header (see {@link
     * ContractResult#remoteAddressFromHeader()}).
     */
    public Builder remoteAddress(InetSocketAddress value, boolean fromHeader) {
      remoteAddress = value;
      remoteAddressFromHeader = fromHeader;
      return this;
    }

    /**
     * Whether the app sees the request as secure, and whether only because of a header (see {@link
     * ContractResult#secureFromHeader()}).
     */
    public Builder secure(boolean value, boolean fromHeader) {
      secure = value;
      secureFromHeader = value && fromHeader;
      return this;
    }

    /**
     * The request timeout and its deadline on the {@link System#nanoTime()} clock; a negative
     * timeout means none.
     */
    public Builder deadline(long timeoutMillis, long deadlineNanos) {
      this.timeoutMillis = timeoutMillis < 0 ? -1 : timeoutMillis;
      this.deadlineNanos = timeoutMillis < 0 ? 0 : deadlineNanos;
      return this;
    }

    /** {@code X-AppEngine-Request-Log-Id}, or null. */
    public Builder requestLogId(String value) {
      requestLogId = value;
      return this;
    }

    /** {@code X-AppEngine-Default-Version-Hostname}, or null. */
    public Builder defaultVersionHostname(String value) {
      defaultVersionHostname = value;
      return this;
    }

    /** The trace context, or null. */
    public Builder trace(TraceContext value) {
      trace = value;
      return this;
    }

    /** The signed-in user, or null. */
    public Builder user(UserInfo value) {
      user = value;
      return this;
    }

    /** The task/cron information, or null. */
    public Builder task(TaskInfo value) {
      task = value;
      return this;
    }

    /** See {@link ContractResult#skipAdminCheck()}. */
    public Builder skipAdminCheck(boolean value) {
      skipAdminCheck = value;
      return this;
    }

    /** The trusted {@code X-AppEngine-Api-Ticket} kept for the app's API calls, or null. */
    public Builder apiTicket(String value) {
      apiTicket = value;
      return this;
    }

    /**
     * The header fields the app sees, and whether they differ from the fields received (see {@link
     * ContractResult#headersChanged()}).
     */
    public Builder headers(HttpFields value, boolean changed) {
      headers = value == null ? HttpFields.EMPTY : value;
      headersChanged = changed;
      return this;
    }

    public ContractResult build() {
      return new ContractResult(
          trustedPeer,
          remoteAddress,
          remoteAddressFromHeader,
          secure,
          secureFromHeader,
          timeoutMillis,
          deadlineNanos,
          requestLogId,
          defaultVersionHostname,
          trace,
          user,
          task,
          skipAdminCheck,
          apiTicket,
          headers,
          headersChanged);
    }
  }

  /** Whether the TCP peer is trusted to send platform headers. */
  public boolean trustedPeer() {
    return trustedPeer;
  }

  /**
   * The remote address the app sees: {@code X-AppEngine-User-IP} (port 0), the client a forwarding
   * header names (its port, or 0), or the TCP peer.
   */
  public InetSocketAddress remoteAddress() {
    return remoteAddress;
  }

  /**
   * Whether {@link #remoteAddress()} came from {@code X-AppEngine-User-IP} or a forwarding header.
   */
  public boolean remoteAddressFromHeader() {
    return remoteAddressFromHeader;
  }

  /** Whether the app sees the request as secure ({@code https}). */
  public boolean secure() {
    return secure;
  }

  /**
   * Whether {@link #secure()} is true only because of {@code X-AppEngine-Https: on} or a forwarded
   * {@code https} ({@code X-Forwarded-Proto}, {@code Forwarded}).
   */
  public boolean secureFromHeader() {
    return secureFromHeader;
  }

  /** The timeout from {@code X-AppEngine-Timeout-Ms}, or -1 when there is none. */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** Whether the request has a deadline. */
  public boolean hasDeadline() {
    return timeoutMillis >= 0;
  }

  /**
   * The deadline on the {@link System#nanoTime()} clock (time of {@link RequestContract#apply} plus
   * {@link #timeoutMillis()}); meaningful only if {@link #hasDeadline()}.
   */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /** {@code X-AppEngine-Request-Log-Id}, or null. */
  public String requestLogId() {
    return requestLogId;
  }

  /** {@code X-AppEngine-Default-Version-Hostname}, or null. */
  public String defaultVersionHostname() {
    return defaultVersionHostname;
  }

  /** The trace context, or null when no valid trace header was sent. */
  public TraceContext trace() {
    return trace;
  }

  /** The signed-in user, or null when there is none (no {@code X-AppEngine-User-Email}). */
  public UserInfo user() {
    return user;
  }

  /** The task/cron information, or null when this is not a task or cron request. */
  public TaskInfo task() {
    return task;
  }

  /**
   * Whether a trusted front end sent {@code X-Google-Internal-SkipAdminCheck: true}: the platform's
   * own request (see {@link RequestAttributes#SKIP_ADMIN_CHECK}).
   */
  public boolean skipAdminCheck() {
    return skipAdminCheck;
  }

  /**
   * The trusted {@code X-AppEngine-Api-Ticket}, when the options keep it ({@link
   * ContractOptions#apiTicket()}); else null.
   */
  public String apiTicket() {
    return apiTicket;
  }

  /** The header fields the app sees: the request's own instance when nothing was removed. */
  public HttpFields headers() {
    return headers;
  }

  /** Whether {@link #headers()} differs from the request's fields (some were removed). */
  public boolean headersChanged() {
    return headersChanged;
  }

  /** Whether the app's view of the request differs from the raw request (headers, peer, scheme). */
  public boolean changesRequest() {
    return headersChanged || remoteAddressFromHeader || secureFromHeader;
  }

  /** Whether any request attribute will be set (see {@link RequestAttributes}). */
  public boolean hasAttributes() {
    return requestLogId != null
        || defaultVersionHostname != null
        || timeoutMillis >= 0
        || trace != null
        || user != null
        || task != null
        || skipAdminCheck
        || apiTicket != null;
  }

  @Override
  public String toString() {
    return "ContractResult[trustedPeer="
        + trustedPeer
        + ", remoteAddress="
        + remoteAddress
        + ", secure="
        + secure
        + ", timeoutMillis="
        + timeoutMillis
        + ", requestLogId="
        + requestLogId
        + ", trace="
        + trace
        + ", user="
        + user
        + ", task="
        + task
        + ", headersChanged="
        + headersChanged
        + "]";
  }
}
