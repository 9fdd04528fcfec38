package dev.aerun.runtime.contract;

import org.eclipse.jetty.util.Attributes;

/**
 * Names of the request attributes through which the app reads what the platform said about a
 * request ({@code request.getAttribute(name)} in a servlet). An attribute is set only when its
 * value is known: from a trusted peer for everything but the trace, which any caller may propagate.
 */
public final class RequestAttributes {
  private RequestAttributes() {}

  /** {@code String}: the platform's request log id ({@code X-AppEngine-Request-Log-Id}). */
  public static final String REQUEST_LOG_ID = "com.google.appengine.request.log_id";

  /** {@code String}: 32 lowercase hex digits, from {@code X-Cloud-Trace-Context}/traceparent. */
  public static final String TRACE_ID = "com.google.appengine.request.trace_id";

  /** {@code String}: the caller's span id, 16 lowercase hex digits (absent if none was sent). */
  public static final String SPAN_ID = "com.google.appengine.request.span_id";

  /** {@code Boolean}: whether the caller asked for this request to be traced. */
  public static final String TRACE_SAMPLED = "com.google.appengine.request.trace_sampled";

  /**
   * {@code Long}: the request timeout the front end gave, in ms ({@code X-AppEngine-Timeout-Ms}).
   */
  public static final String TIMEOUT_MILLIS = "com.google.appengine.request.timeout_millis";

  /**
   * {@code Long}: the request deadline on the {@link System#nanoTime()} clock (arrival time plus
   * {@link #TIMEOUT_MILLIS}); time left is {@code deadline - System.nanoTime()}.
   */
  public static final String DEADLINE_NANOS = "com.google.appengine.request.deadline_nanos";

  /** {@code String}: host name of the app's default version. */
  public static final String DEFAULT_VERSION_HOSTNAME =
      "com.google.appengine.runtime.default_version_hostname";

  /** {@code String}: the signed-in user's email. */
  public static final String USER_EMAIL = "com.google.appengine.user.email";

  /** {@code String}: the signed-in user's id. */
  public static final String USER_ID = "com.google.appengine.user.id";

  /** {@code String}: the signed-in user's nickname. */
  public static final String USER_NICKNAME = "com.google.appengine.user.nickname";

  /** {@code Boolean}: whether the signed-in user is an admin of the app. */
  public static final String USER_IS_ADMIN = "com.google.appengine.user.is_admin";

  /** {@code String}: the signed-in user's auth domain. */
  public static final String USER_AUTH_DOMAIN = "com.google.appengine.user.auth_domain";

  /** {@code String}: the signed-in user's organization. */
  public static final String USER_ORGANIZATION = "com.google.appengine.user.organization";

  /** {@code String}: the task queue that sent this request. */
  public static final String QUEUE_NAME = "com.google.appengine.task.queue_name";

  /** {@code String}: the name of the task this request runs. */
  public static final String TASK_NAME = "com.google.appengine.task.name";

  /** {@code Integer}: how many times this task was retried before. */
  public static final String TASK_RETRY_COUNT = "com.google.appengine.task.retry_count";

  /** {@code Boolean.TRUE} when the request is a cron job (absent otherwise). */
  public static final String CRON = "com.google.appengine.request.cron";

  /**
   * {@code Boolean.TRUE} when a trusted front end sent {@code X-Google-Internal-SkipAdminCheck:
   * true} (absent otherwise): the platform's own request, which passes role constraints and
   * transport guarantees. The platform's runtime uses the same name.
   */
  public static final String SKIP_ADMIN_CHECK = "com.google.apphosting.internal.SkipAdminCheck";

  /**
   * {@code String}: the request's API ticket from a trusted {@code X-AppEngine-Api-Ticket}, set
   * only for an app with {@code <app-engine-apis>} ({@link ContractOptions#apiTicket()}), whose API
   * handler takes it off the request before the app runs: the app never sees it.
   */
  public static final String API_TICKET = "dev.aerun.apis.api_ticket";

  /**
   * Sets on {@code request} every attribute {@code result} has a value for, with the types named
   * above: the one place both serving modes set them, so they cannot disagree. Does nothing (and
   * allocates nothing) when the result carries no attribute.
   */
  public static void setAll(Attributes request, ContractResult result) {
    if (!result.hasAttributes()) {
      return;
    }
    setIfPresent(request, REQUEST_LOG_ID, result.requestLogId());
    setIfPresent(request, DEFAULT_VERSION_HOSTNAME, result.defaultVersionHostname());
    if (result.hasDeadline()) {
      request.setAttribute(TIMEOUT_MILLIS, result.timeoutMillis());
      request.setAttribute(DEADLINE_NANOS, result.deadlineNanos());
    }
    TraceContext trace = result.trace();
    if (trace != null) {
      request.setAttribute(TRACE_ID, trace.traceId());
      setIfPresent(request, SPAN_ID, trace.spanId());
      request.setAttribute(TRACE_SAMPLED, trace.sampled());
    }
    UserInfo user = result.user();
    if (user != null) {
      request.setAttribute(USER_EMAIL, user.email());
      setIfPresent(request, USER_ID, user.id());
      setIfPresent(request, USER_NICKNAME, user.nickname());
      request.setAttribute(USER_IS_ADMIN, user.admin());
      setIfPresent(request, USER_AUTH_DOMAIN, user.authDomain());
      setIfPresent(request, USER_ORGANIZATION, user.organization());
    }
    setIfPresent(request, API_TICKET, result.apiTicket());
    if (result.skipAdminCheck()) {
      request.setAttribute(SKIP_ADMIN_CHECK, Boolean.TRUE);
    }
    TaskInfo task = result.task();
    if (task != null) {
      setIfPresent(request, QUEUE_NAME, task.queueName());
      setIfPresent(request, TASK_NAME, task.taskName());
      if (task.retryCount() >= 0) {
        request.setAttribute(TASK_RETRY_COUNT, task.retryCount());
      }
      if (task.cron()) {
        request.setAttribute(CRON, Boolean.TRUE);
      }
    }
  }

  private static void setIfPresent(Attributes request, String name, Object value) {
    if (value != null) {
      request.setAttribute(name, value);
    }
  }
}
